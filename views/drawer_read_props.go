package views

import (
	"encoding/json"
	"net/url"
	"strconv"
)

// MaxPromptMessages is the most messages of a prompt the drawer shows; the
// rest are counted, like a card's items past MaxContentItems.
const MaxPromptMessages = 100

// MaxCompletionValues is how many completion values become suggestions:
// MCP allows a server at most 100 per answer.
const MaxCompletionValues = 100

// ResourceReadProps is what the drawer's Read button shows: a resource's
// contents, rendered by the same content renderers as a call's result and
// under the same budgets, since a server decides their size.
type ResourceReadProps struct {
	URI   string
	Items []ContentItemProps
	// More counts contents past MaxContentItems.
	More int
	// Cut says some text was cut or some media left out to stay within
	// the budgets; RawURL downloads the whole answer.
	Cut    bool
	RawURL string
}

// PromptFormProps is a prompt's argument form: one text field per
// argument, each offering the server's completions as suggestions.
type PromptFormProps struct {
	ID       string // the form's id, also the base of its fields' ids
	Prompt   string // the prompt's name, or the resource template's URI template
	LabelID  string // the form's accessible name: a prompt's or a template's arguments
	SubmitID string
	Action   string // where the form posts for the messages
	Complete string // where a field asks for completions, with ?complete=<argument>
	ResultID string // the region the messages go to
	Fields   []PromptFieldProps
}

// PromptFieldProps is one argument of a prompt as a form field.
type PromptFieldProps struct {
	Name        string
	Description string
	Required    bool
	InputID     string
	ListID      string // the datalist holding the completions
	DescID      string
	Value       string
	CompleteURL string
}

// PromptArgField is the form field name of argument name: prefixed so that
// an argument named like a control of the form ("complete") cannot clash.
func PromptArgField(name string) string { return "arg." + name }

// NewPromptFormProps builds the form for one prompt. key makes the ids of
// the form unique in the page (the server's key and the prompt's index).
func NewPromptFormProps(key string, p PromptProps, action, complete string) PromptFormProps {
	f := PromptFormProps{ID: "prompt-form-" + key, Prompt: p.Name, Action: action, Complete: complete,
		ResultID: "prompt-result-" + key, LabelID: "CapsFormLabel", SubmitID: "CapsGetSubmit"}
	for i, a := range p.Args {
		id := f.ID + "-" + strconv.Itoa(i)
		fp := PromptFieldProps{Name: a.Name, Description: a.Description, Required: a.Required,
			InputID: id, ListID: id + "-options"}
		if a.Description != "" {
			fp.DescID = id + "-desc"
		}
		if complete != "" {
			fp.CompleteURL = complete + "?" + url.Values{"complete": {a.Name}}.Encode()
		}
		f.Fields = append(f.Fields, fp)
	}
	return f
}

// NewTemplateFormProps builds the form that fills a resource template's
// variables, each offering the server's completions, and reads the
// resource they name. action and complete carry the template as their
// query already, so a field's URL goes on with "&".
func NewTemplateFormProps(key, template string, vars []string, action, complete string) PromptFormProps {
	p := PromptProps{Name: template}
	for _, v := range vars {
		p.Args = append(p.Args, PromptArgProps{Name: v})
	}
	f := NewPromptFormProps(key, p, action, "")
	f.ID, f.ResultID = "template-form-"+key, "template-result-"+key
	f.LabelID, f.SubmitID = "CapsTemplateFormLabel", "CapsRead"
	for i := range f.Fields {
		id := f.ID + "-" + strconv.Itoa(i)
		f.Fields[i].InputID, f.Fields[i].ListID = id, id+"-options"
		f.Fields[i].CompleteURL = complete + "&" + url.Values{"complete": {f.Fields[i].Name}}.Encode()
	}
	return f
}

// PromptMessagesProps is what prompts/get returned: the prompt's
// description, then its messages in order.
type PromptMessagesProps struct {
	Description string
	Messages    []PromptMessageProps
	More        int  // messages past MaxPromptMessages
	Cut         bool // some text was cut or media left out to stay within the budgets
}

// PromptMessageProps is one message: who speaks it, and its content item.
type PromptMessageProps struct {
	Role   string // user, assistant, or what the server sent, cut
	RoleID string // the message id naming the role; empty for a role MCP does not define
	Item   ContentItemProps
}

// NewResourceRead converts a resources/read answer into what the drawer
// shows, within MaxContentItems, CardTextBudget and CardMediaBudget; rawURL
// downloads the whole answer when something was left out.
func NewResourceRead(uri string, raw json.RawMessage, rawURL string) ResourceReadProps {
	var r struct {
		Contents []json.RawMessage `json:"contents"`
	}
	_ = json.Unmarshal(raw, &r)
	p := ResourceReadProps{URI: shown(uri, MaxShownURI), RawURL: rawURL}
	b := newReadBudget()
	for i, c := range r.Contents[:min(len(r.Contents), MaxContentItems)] {
		var rj resourceJSON
		it := ContentItemProps{Type: "resource", Index: i}
		if err := json.Unmarshal(c, &rj); err != nil {
			it.Type = "unknown"
			it.setRaw(c, ContentURLs{}, b.limit())
		} else {
			it.setResource(rj, ContentURLs{}, false, b.limit(), mediaSrc{})
		}
		p.Items = append(p.Items, b.take(it))
	}
	p.More = max(len(r.Contents)-MaxContentItems, 0)
	p.Cut = b.cut || p.More > 0
	return p
}

// NewPromptMessages converts a prompts/get answer into what the drawer
// shows, under the same bounds as NewResourceRead. read is where a
// resource_link in a message is previewed, and key (PromptKey) makes the
// previews' ids unique in the page.
func NewPromptMessages(key string, raw json.RawMessage, read func(uri string) string) PromptMessagesProps {
	var r struct {
		Description string `json:"description"`
		Messages    []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(raw, &r)
	p := PromptMessagesProps{Description: shown(r.Description, LongTextChars)}
	b := newReadBudget()
	urls := ContentURLs{Read: read}
	for i, m := range r.Messages[:min(len(r.Messages), MaxPromptMessages)] {
		mp := PromptMessageProps{Role: shown(m.Role, MaxShownName)}
		switch m.Role {
		case "user":
			mp.RoleID = "CapsRoleUser"
		case "assistant":
			mp.RoleID = "CapsRoleAssistant"
		}
		mp.Item = b.take(newContentItem(i, m.Content, urls, false, b.limit(), mediaSrc{}))
		if mp.Item.Link != nil {
			mp.Item.Link.PreviewID = "prompt-preview-" + key + "-" + strconv.Itoa(i)
		}
		p.Messages = append(p.Messages, mp)
	}
	p.More = max(len(r.Messages)-MaxPromptMessages, 0)
	p.Cut = b.cut
	return p
}

// CompletionValues are the values of a completion/complete answer, at most
// MaxCompletionValues of them, each cut to MaxShownName.
func CompletionValues(raw json.RawMessage) []string {
	var r struct {
		Completion struct {
			Values []string `json:"values"`
		} `json:"completion"`
	}
	_ = json.Unmarshal(raw, &r)
	vs := r.Completion.Values[:min(len(r.Completion.Values), MaxCompletionValues)]
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		out = append(out, shown(v, MaxShownName))
	}
	return out
}

// readBudget is what is left of the text and media budgets while one
// answer's items are converted, and whether any item went over.
type readBudget struct {
	text, media int
	cut         bool
}

func newReadBudget() *readBudget {
	return &readBudget{text: CardTextBudget, media: CardMediaBudget}
}

// limit is how much text or JSON the next item may show inline.
func (b *readBudget) limit() int { return min(InlineTextCap, b.text) }

// take charges item it to the budgets. Media past what is left would be
// inlined whole (a read has no stored copy to serve by URL), so such an
// item is refused in words instead and the answer marked as cut.
func (b *readBudget) take(it ContentItemProps) ContentItemProps {
	if n := it.inlineBytes(); n > 0 {
		if n > b.media {
			b.cut = true
			return ContentItemProps{Type: "refused", Index: it.Index, URI: it.URI,
				Refused: Message{ID: "CapsMediaTooLarge"}}
		}
		b.media -= n
	}
	if it.Clipped || it.RawCut {
		b.cut = true
	}
	b.text = max(b.text-len(it.HTML)-escapedLen(it.Code)-escapedLen(it.Raw), 0)
	return it
}
