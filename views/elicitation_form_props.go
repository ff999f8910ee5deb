package views

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ElicitKind is the control one property of a server's question is
// answered with.
type ElicitKind string

const (
	ElicitText    ElicitKind = "text"    // string; Input says which <input type>
	ElicitNumber  ElicitKind = "number"  // number or integer
	ElicitBool    ElicitKind = "boolean" // a checkbox
	ElicitSelect  ElicitKind = "select"  // a single choice of an enum
	ElicitChoices ElicitKind = "choices" // an array of enum values: checkboxes
)

// ElicitFieldPrefix starts the form name of every property, so no
// property can collide with the form's own fields (action, anyway).
const ElicitFieldPrefix = "f."

// ElicitShownPrefix names the hidden field that says a checkbox property
// was on the form: an unchecked box posts nothing, but it still means
// false (or no choice), not "leave it to the default".
const ElicitShownPrefix = "shown."

// MaxElicitFields bounds the properties a form shows; a server's schema is
// untrusted and may list thousands.
const MaxElicitFields = 50

// ElicitationFormProps is a server's question to the person: a form built
// from the requested schema, or, in URL mode, the address to open.
type ElicitationFormProps struct {
	// ID is the element id of the form, unique on the page and stable
	// for as long as the same question waits: it names the question, so
	// a redraw of the card keeps the live form (hx-preserve) and a new
	// question gets a new one.
	ID      string
	TitleID string
	Server  string
	Message string // the server's text, untrusted
	// MessageScrolls puts a long message in a block of bounded height
	// that scrolls, and that a keyboard can focus to scroll it.
	MessageScrolls bool
	// MessageTotal is the length in bytes of the message the server sent
	// when the card shows only its start (len(Message) bytes), else 0.
	MessageTotal int
	URLMode      bool
	URL          string // URL mode: the address, shown in full
	Host         string // URL mode: its host, shown prominently, in Unicode
	// HostASCII is the host as the browser goes to it (punycode) when
	// that is spelled differently from Host: a name in other scripts can
	// look like another site's.
	HostASCII string
	// HostInvalid says the host is no valid internationalized name, which
	// a browser may refuse to open.
	HostInvalid bool
	PostURL     string // where the answer goes
	Fields      []ElicitFieldProps
	Warnings    []Message // where the last answer broke the schema (MsgText)
	AnywayBox   bool      // offer to send an answer that breaks the schema
	// Preserve keeps the form the page shows, with what the person typed
	// and where their focus is, when the card or drawer around it is
	// drawn again. The answer's own redraw (the form with warnings) is
	// not preserved, or htmx would keep the old form instead.
	Preserve bool
}

// ElicitFieldProps is one property of the requested schema.
type ElicitFieldProps struct {
	ID          string // the element id of the control
	Name        string // the form name: ElicitFieldPrefix + the property name
	Label       string // the schema's title, else the property name
	Description string
	Kind        ElicitKind
	Input       string // ElicitText: text, email, url, date or datetime-local
	Required    bool
	Value       string // the prefilled value (the default), for text and number
	Checked     bool   // ElicitBool: the default is true
	Step        string // ElicitNumber: "1" for integers, else "any"
	Min, Max    string // number bounds, or string length bounds (MinLength, MaxLength)
	// Pattern is the schema's, untrusted: it is never put on the page,
	// where a hostile one could stall the tab, but checked by the
	// handler when the answer comes (domain.ElicitPatternMismatches).
	Pattern string
	// PatternMismatch says the answer posted does not match Pattern.
	PatternMismatch bool
	Options         []ElicitOption
}

// ElicitOption is one choice of an enum, with its title (SEP-1330) when
// the schema gives one.
type ElicitOption struct {
	Value, Label string
	Selected     bool
	// JSON is the value as the schema wrote it when it is not a string
	// (a number or boolean), so the answer keeps its type; else empty.
	JSON string
}

// elicitProp is the part of a property schema the form understands: the
// primitive types MCP elicitation allows.
type elicitProp struct {
	Type        string            `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Format      string            `json:"format"`
	Pattern     string            `json:"pattern"`
	Default     json.RawMessage   `json:"default"`
	Minimum     json.Number       `json:"minimum"`
	Maximum     json.Number       `json:"maximum"`
	MinLength   json.Number       `json:"minLength"`
	MaxLength   json.Number       `json:"maxLength"`
	Enum        []json.RawMessage `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []constTitle      `json:"oneOf"`
	AnyOf       []constTitle      `json:"anyOf"`
	Items       *elicitProp       `json:"items"`
}

type constTitle struct {
	Const json.RawMessage `json:"const"`
	Title string          `json:"title"`
}

// NewElicitationFormProps builds the form for e, whose answer is posted
// to postURL; idPrefix makes its element ids unique on the page.
func NewElicitationFormProps(e domain.Elicitation, idPrefix, postURL string) *ElicitationFormProps {
	id := ElicitationFormID(idPrefix, e.ID)
	p := &ElicitationFormProps{ID: id, TitleID: id + "-title", Server: e.Server,
		Message: e.Message, MessageScrolls: messageScrolls(e.Message), PostURL: postURL, Preserve: true}
	if e.MessageBytes > len(e.Message) {
		p.MessageTotal = e.MessageBytes
	}
	if e.Mode == domain.ElicitURL {
		p.URLMode, p.URL = true, e.URL
		if u, err := url.Parse(e.URL); err == nil {
			p.Host, p.HostASCII, p.HostInvalid = elicitHost(u)
		}
		return p
	}
	p.Fields = ElicitFields(e.RequestedSchema, p.ID)
	return p
}

// Past these a message is shown in a block that scrolls: a shorter one
// is shown whole, with no scrolling region to tab through.
const (
	maxPlainMessageBytes = 1 << 10
	maxPlainMessageLines = 12
)

// messageScrolls reports whether msg is long enough to be shown in a
// block that scrolls.
func messageScrolls(msg string) bool {
	return len(msg) > maxPlainMessageBytes || strings.Count(msg, "\n") >= maxPlainMessageLines
}

// ElicitationFormID is the element id of question's form in the place
// idPrefix names (a card, the drawer).
func ElicitationFormID(idPrefix, question string) string {
	return idPrefix + "-elicit-" + question
}

// ElicitationOpenProps is the page a URL-mode question's address opens
// through. Dir travels with Lang so an Arabic page reads right to left.
type ElicitationOpenProps struct {
	Lang, Dir, URL, Host string
}

func elicitMode(p *ElicitationFormProps) string {
	if p.URLMode {
		return domain.ElicitURL
	}
	return domain.ElicitForm
}

// openHost is the host the open button names: the one the browser goes
// to.
func openHost(p *ElicitationFormProps) string {
	if p.HostASCII != "" {
		return p.HostASCII
	}
	return p.Host
}

// describedBy lists the ids of f's pattern warning and description, or
// is empty without either.
func describedBy(f ElicitFieldProps) string {
	var ids []string
	if f.PatternMismatch {
		ids = append(ids, f.ID+"-pattern")
	}
	if f.Description != "" {
		ids = append(ids, f.ID+"-desc")
	}
	return strings.Join(ids, " ")
}

// MarkPatternMismatches flags the fields of the properties named (as
// domain.ElicitPatternMismatches names them), so each says its answer
// does not match. It reports whether it flagged any.
func MarkPatternMismatches(fields []ElicitFieldProps, names []string) bool {
	flagged := false
	for i := range fields {
		name := strings.TrimPrefix(fields[i].Name, ElicitFieldPrefix)
		if slices.Contains(names, name) {
			fields[i].PatternMismatch, flagged = true, true
		}
	}
	return flagged
}

// patternMismatches are the fields whose answer broke their pattern.
func patternMismatches(fields []ElicitFieldProps) []ElicitFieldProps {
	var out []ElicitFieldProps
	for _, f := range fields {
		if f.PatternMismatch {
			out = append(out, f)
		}
	}
	return out
}

func itoaView(i int) string { return strconv.Itoa(i) }

// numberBounds are a number's min and max attributes, where the schema
// gives them.
func numberBounds(f ElicitFieldProps) templ.Attributes {
	a := templ.Attributes{}
	if f.Min != "" {
		a["min"] = f.Min
	}
	if f.Max != "" {
		a["max"] = f.Max
	}
	return a
}

// textBounds are a string's length bounds, where the schema gives them,
// and aria-invalid when the answer broke the pattern.
// Its pattern is left out: the browser's regex engine backtracks, and a
// server's pattern is checked on the answer instead.
func textBounds(f ElicitFieldProps) templ.Attributes {
	a := templ.Attributes{}
	if f.Min != "" {
		a["minlength"] = f.Min
	}
	if f.Max != "" {
		a["maxlength"] = f.Max
	}
	if f.PatternMismatch {
		a["aria-invalid"] = "true"
	}
	return a
}

// ElicitationAnsweredProps is what the person decided about a server's
// question, as the page announces it.
type ElicitationAnsweredProps struct {
	Server  string
	Message string // the message id for the action
}

// NewElicitationAnsweredProps says action (accept, decline or cancel)
// about server's question.
func NewElicitationAnsweredProps(server, action string) ElicitationAnsweredProps {
	msg := "ElicitAnsweredCancel"
	switch action {
	case domain.ElicitAccept:
		msg = "ElicitAnsweredAccept"
	case domain.ElicitDecline:
		msg = "ElicitAnsweredDecline"
	}
	return ElicitationAnsweredProps{Server: server, Message: msg}
}
