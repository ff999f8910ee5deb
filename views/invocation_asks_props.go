package views

import (
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// AskDetailBytes caps the detail one ask shows: it is a server's or a
// client's error text, untrusted and of any length.
const AskDetailBytes = 300

// InvocationAsksProps is the requests a server made while a call ran
// (elicitation, sampling, roots), oldest first, as the card lists them.
type InvocationAsksProps struct {
	TitleID string // the element id of the list's caption, unique per card
	Items   []AskProps
}

// AskProps is one request a server made: what it asked, how long into
// the call, and how it ended.
type AskProps struct {
	Kind    string // elicit, sample, roots or other, for styling and tests
	What    Message
	ISO     string  // the instant, for <time datetime>
	After   Message // how long after the call started
	Outcome string  // domain.AskAnswered, AskAnsweredByPerson, AskNotAsked or AskFailed
	Result  Message // the outcome in words, with the detail when there is one
}

var askKinds = map[string]struct{ kind, label string }{
	domain.MethodElicit: {"elicit", "InvocationAskElicit"},
	domain.MethodSample: {"sample", "InvocationAskSample"},
	domain.MethodRoots:  {"roots", "InvocationAskRoots"},
}

// askOutcomes are the outcome labels without and with a detail.
var askOutcomes = map[string][2]string{
	domain.AskAnswered:         {"InvocationAskAnswered", "InvocationAskAnswered"},
	domain.AskAnsweredByPerson: {"InvocationAskAnsweredByPerson", "InvocationAskAnsweredByPerson"},
	domain.AskNotAsked:         {"InvocationAskNotAsked", "InvocationAskNotAskedDetail"},
	domain.AskFailed:           {"InvocationAskFailed", "InvocationAskFailedDetail"},
}

// NewInvocationAsksProps lists inv's asks for the card whose element id
// is cardID, or is nil when the server asked nothing. The detail is shown
// as text (templ escapes it), cut to AskDetailBytes.
func NewInvocationAsksProps(inv domain.Invocation, cardID string) *InvocationAsksProps {
	if len(inv.Asks) == 0 {
		return nil
	}
	p := &InvocationAsksProps{TitleID: cardID + "-asks"}
	for _, a := range inv.Asks {
		it := AskProps{ISO: a.At.UTC().Format(time.RFC3339Nano), After: DurationMessage(max(a.At.Sub(inv.StartedAt), 0)), Outcome: a.Outcome}
		if k, ok := askKinds[a.Method]; ok {
			it.Kind, it.What = k.kind, Message{ID: k.label}
		} else {
			it.Kind, it.What = "other", Message{ID: "InvocationAskOther", Data: map[string]any{"Method": cutUTF8(a.Method, 64)}}
		}
		labels, ok := askOutcomes[a.Outcome]
		if !ok {
			it.Outcome, labels = domain.AskFailed, askOutcomes[domain.AskFailed]
		}
		it.Result = Message{ID: labels[0]}
		if a.Detail != "" && it.Outcome != domain.AskAnswered && it.Outcome != domain.AskAnsweredByPerson {
			d := a.Detail
			if len(d) > AskDetailBytes {
				d = cutUTF8(d, AskDetailBytes) + jsonEllipsis
			}
			it.Result = Message{ID: labels[1], Data: map[string]any{"Detail": d}}
		}
		p.Items = append(p.Items, it)
	}
	return p
}
