package views

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
)

// CardPlace says where a card is drawn. The same invocation can be on the
// page's feed, in a server's drawer and in the history at once, and each
// copy needs its own element ids and a landmark name of its own.
type CardPlace string

const (
	CardInFeed    CardPlace = "inv"
	CardInDrawer  CardPlace = "dinv"
	CardInHistory CardPlace = "hinv"
)

// CardURLs are the endpoints one card calls.
type CardURLs struct {
	Copy    func(part string) string
	Raw     func(part string) string // the part as stored, downloaded; for what a card cuts short
	Stop    string
	Retry   string
	Approve string // lets a call held for approval run
	Deny    string // ends a call held for approval as denied
	SignIn  string // starts a sign-in to the call's server, for a call refused as needing more access
	Item    func(index int) string
	Media   func(index int) string // one item's image, audio or blob bytes, past InlineMediaCap
	Read    func(uri string) string
}

// CardInput is everything a card shows beside the invocation itself.
type CardInput struct {
	Place CardPlace
	Tool  *domain.Tool // the tool as listed, for its icon and schemas; nil when unknown now
	URLs  CardURLs
	OOB   bool // replace the card with the same id, out of band
	// Elicitation is the server's question the call waits on a person to
	// answer; nil when it waits on nobody.
	Elicitation *ElicitationFormProps
}

// InvocationCardProps is everything one tool invocation card shows:
// the header, the arguments and the result, already decided.
type InvocationCardProps struct {
	ID           string
	InvocationID string
	// Version is the snapshot's version, so the page can tell a card that
	// loaded behind its call's newest change.
	Version  uint64
	Place    CardPlace
	Tool     string
	Label    Message
	Status   string
	Badge    Message
	Icon     templ.SafeURL // a checked data: image, or empty for the generic icon
	Server   string
	Duration *Message
	// Started is the call's start, shown as HH:MM:SS in UTC in the digits
	// of the page's language (every page of a language renders the same),
	// and StartedAt the same instant as RFC 3339 and in Unix milliseconds:
	// cards.js rewrites the text in the reader's zone and counts a
	// running call's elapsed seconds from it.
	Started              time.Time
	StartedAt, StartedMs string
	// CanRerun offers Re-run and Edit and re-run: every finished call can
	// be sent again, as it was or with its arguments edited in the form.
	CanRerun bool

	ArgsJSON string
	ArgsLong bool
	// ArgsID is the arguments section's element id, which the header's
	// toggle controls; ArgsOpen is whether the section starts open.
	ArgsID   string
	ArgsOpen bool
	// ArgsFields are the read-only form view: the Run form's controls,
	// disabled or read-only, filled with the arguments sent.
	ArgsFields []RunFieldProps
	// ArgsRequiredNote is whether some field is marked required, so the
	// form view explains the mark as the Run form does.
	ArgsRequiredNote bool
	ArgsCut          bool // a cap cut the JSON or the form view; RawArgsURL has them all
	RawArgsURL       string
	ArgsNotes        ArgsNotesProps

	HasResult  bool
	ResultOpen bool
	Progress   *ProgressProps
	Task       *InvocationTaskProps // the task the call runs as; nil for plain calls
	Asks       *InvocationAsksProps // what the server asked during the call; nil when nothing
	Items      []ContentItemProps
	MoreItems  int // content items past MaxContentItems, not shown
	Structured *StructuredProps
	RawURL     string // the whole result, downloaded
	Truncated  bool
	Error      string
	// ErrorMessage explains an error code Switchboard set itself (say
	// "interrupted") in the reader's language; it is shown instead of Error.
	ErrorMessage *Message

	// Source says where the call came from and which AI client made it;
	// Approval is set while the call awaits a person's decision.
	Source   *InvocationSourceProps
	Approval *InvocationApprovalProps
	// Elicitation is the server's question the call waits on.
	Elicitation *ElicitationFormProps

	CanCancel, CanRetry bool
	CopyArgsURL         string
	CopyResultURL       string
	StopURL, RetryURL   string
	// SignInURL is set on a call the server refused for lack of access: the
	// card offers to sign in with more, then Retry.
	SignInURL    string
	SignInScopes string // what the server asked for, space-separated
	OOB          bool
}

// ProgressProps is the last progress a server reported.
type ProgressProps struct {
	Value, Max string // Max is empty when the server gave no total
	Percent    string // whole percent of Max; empty without a total
	Message    string
}

// Caps of the argument form view and of the schema violations listed.
const (
	MaxArgFields  = 100  // top-level arguments listed, in schema order, then keys sorted
	ArgValueBytes = 2000 // bytes of one argument's value listed
	MaxViolations = 50
)

var statusBadges = map[domain.InvocationStatus]string{
	domain.InvocationPending:   "InvocationPending",
	domain.InvocationRunning:   "InvocationRunning",
	domain.InvocationSuccess:   "InvocationSuccess",
	domain.InvocationError:     "InvocationError",
	domain.InvocationCancelled: "InvocationCancelled",
	// A call held for approval, and one a person denied.
	domain.InvocationAwaitingApproval: "InvocationAwaitingApproval",
	domain.InvocationDenied:           "InvocationDenied",
}

// cardLabels name a card by where it is. CardInHistory is the call
// list's place now, so its cards say they are in the call list.
var cardLabels = map[CardPlace]string{
	CardInFeed: "InvocationCardLabel", CardInDrawer: "InvocationCardLabelDrawer", CardInHistory: "WorkbenchCardLabelCalls",
}

// cardRef is the short reference in a card's name: the id's last six
// characters, as ids made in sequence share their start, and two cards
// in one place named alike would be landmarks a screen reader cannot
// tell apart.
func cardRef(id string) string {
	if len(id) > 6 {
		return id[len(id)-6:]
	}
	return id
}

// CardID is the element id of inv's card at place.
func CardID(place CardPlace, id string) string { return string(place) + "-" + id }

// NewInvocationCardProps decides everything a card shows from one
// invocation snapshot: badge, which sections are open, what can be done.
func NewInvocationCardProps(inv domain.Invocation, in CardInput) InvocationCardProps {
	if in.Place == "" {
		in.Place = CardInFeed
	}
	p := InvocationCardProps{
		ID: CardID(in.Place, inv.ID), InvocationID: inv.ID, Version: inv.Version, Place: in.Place, Tool: inv.Tool,
		Label:  Message{ID: cardLabels[in.Place], Data: map[string]any{"Tool": inv.Tool, "Ref": cardRef(inv.ID)}},
		Status: string(inv.Status), Badge: Message{ID: statusBadges[inv.Status]},
		Server: inv.ServerName, OOB: in.OOB,
		CanCancel: !inv.Status.Final(), CanRetry: inv.Status == domain.InvocationError,
		CanRerun:  inv.Status.Final(),
		Truncated: inv.Truncated, Error: inv.Error,
	}
	if m, ok := ErrorCodeMessage(inv.ErrorCode); ok {
		p.ErrorMessage = &m
	}
	if p.Badge.ID == "" {
		p.Badge.ID = "InvocationPending"
	}
	if in.Tool != nil {
		p.Icon = toolIcon(in.Tool.IconURLs)
	}
	if !inv.StartedAt.IsZero() {
		p.Started = inv.StartedAt
		p.StartedAt = inv.StartedAt.UTC().Format(time.RFC3339Nano)
		p.StartedMs = strconv.FormatInt(inv.StartedAt.UnixMilli(), 10)
	}
	if inv.Status.Final() && !inv.EndedAt.IsZero() {
		d := DurationMessage(inv.EndedAt.Sub(inv.StartedAt))
		p.Duration = &d
	}
	if in.URLs.Raw != nil {
		p.RawArgsURL, p.RawURL = in.URLs.Raw("arguments"), in.URLs.Raw("result")
	}
	var cutJSON, cutFields bool
	p.ArgsJSON, cutJSON = boundedJSON(inv.Arguments, JSONViewBytes)
	p.ArgsLong = strings.Count(p.ArgsJSON, "\n")+1 > ArgsLongLines
	var schema []byte
	if in.Tool != nil {
		schema = in.Tool.InputSchema
	}
	p.ArgsFields, cutFields = argFields(inv.Arguments, schema, p.ID)
	for _, f := range p.ArgsFields {
		p.ArgsRequiredNote = p.ArgsRequiredNote || f.Required
	}
	p.ArgsCut = cutJSON || cutFields
	p.ArgsNotes = NewArgsNotesProps(inv)

	p.Task = NewInvocationTaskProps(inv.Task)
	p.Asks = NewInvocationAsksProps(inv, p.ID)
	if inv.Status == domain.InvocationRunning {
		p.Progress = &ProgressProps{} // indeterminate until the server reports
		if inv.Progress != nil {
			p.Progress = newProgress(*inv.Progress)
		}
	}
	if len(inv.Result) > 0 || inv.Error != "" {
		p.HasResult = true
	}
	p.ResultOpen = inv.Status == domain.InvocationSuccess
	if len(inv.Result) > 0 {
		r := domain.ParseResult(inv.Result)
		urls := ContentURLs{Item: in.URLs.Item, Media: in.URLs.Media, Read: in.URLs.Read, Raw: p.RawURL}
		p.Items = NewContentItems(r, urls, -1)
		p.MoreItems = len(r.Content) - len(p.Items)
		for i := range p.Items {
			if l := p.Items[i].Link; l != nil {
				l.PreviewID = fmt.Sprintf("%s-preview-%d", p.ID, i)
			}
		}
		p.Structured = NewStructuredProps(r.StructuredContent, inv.OutputViolations, in.Tool != nil && len(in.Tool.OutputSchema) > 0 && !inv.Truncated, r.Content)
		if p.Structured != nil && p.Structured.Cut {
			p.Structured.RawURL = p.RawURL
		}
	}
	if in.URLs.Copy != nil {
		p.CopyArgsURL = in.URLs.Copy("arguments")
		p.CopyResultURL = in.URLs.Copy("result")
	}
	p.StopURL, p.RetryURL = in.URLs.Stop, in.URLs.Retry
	if inv.Status == domain.InvocationError && inv.ErrorCode == domain.ErrorCodeNeedsMoreAccess {
		p.SignInURL = in.URLs.SignIn
		p.SignInScopes = strings.Join(inv.NeededScopes, " ")
	}
	p.Source = NewInvocationSourceProps(inv)
	p.Approval = NewInvocationApprovalProps(inv, in.URLs.Approve, in.URLs.Deny)
	p.ArgsID, p.ArgsOpen = p.ID+"-args", p.Approval != nil
	if !inv.Status.Final() {
		p.Elicitation = in.Elicitation
	}
	return p
}

func newProgress(pr domain.Progress) *ProgressProps {
	p := &ProgressProps{Value: fmtNum(pr.Progress), Message: pr.Message}
	if pr.Total > 0 {
		p.Max = fmtNum(pr.Total)
		p.Percent = strconv.Itoa(int(math.Round(100 * min(pr.Progress/pr.Total, 1))))
	}
	return p
}

func fmtNum(f float64) string { return strings.TrimSuffix(fmt.Sprintf("%g", f), ".0") }

// DurationMessage says how long a call took, in the unit people expect: "250
// ms", "2.0 s", "3 min 5 s", "2 h 5 min". Render it with MsgText, which
// writes its numbers in the reader's language.
func DurationMessage(d time.Duration) Message {
	// Each unit is chosen after rounding to what it shows, so 59.96 s
	// reads "1 min 0 s", not "60.0 s".
	switch {
	case d < time.Second:
		return Message{ID: "InvocationDurationMs", Data: map[string]any{"Ms": d.Milliseconds()}}
	case d.Round(100*time.Millisecond) < time.Minute:
		return Message{ID: "InvocationDurationS", Data: map[string]any{"Seconds": Decimal{Value: d.Seconds(), Digits: 1}}}
	case d.Round(time.Second) < time.Hour:
		secs := int64(d.Round(time.Second) / time.Second)
		return Message{ID: "FormatDurationMinSec", Data: map[string]any{
			"Minutes": Decimal{Value: float64(secs / 60)}, "Seconds": Decimal{Value: float64(secs % 60)}}}
	}
	mins := int64(d.Round(time.Minute) / time.Minute)
	return Message{ID: "FormatDurationHourMin", Data: map[string]any{
		"Hours": Decimal{Value: float64(mins / 60)}, "Minutes": Decimal{Value: float64(mins % 60)}}}
}

// toolIcon takes the first icon only when it is an embedded raster image:
// a remote icon would be fetched from a server the person never chose to
// contact, and SVG can carry script.
func toolIcon(urls []string) templ.SafeURL {
	if len(urls) == 0 {
		return ""
	}
	u := urls[0]
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return ""
	}
	mime, data, ok := strings.Cut(rest, ";base64,")
	if !ok || len(data) > InlineMediaCap {
		return "" // an icon is drawn on every card of the tool: a big one would bloat them all
	}
	var p ContentItemProps
	p.setImage(mime, data, mediaSrc{})
	return p.Src
}

// VersionAttr is Version as the card's data-version.
func (p InvocationCardProps) VersionAttr() string { return strconv.FormatUint(p.Version, 10) }
