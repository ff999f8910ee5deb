package views_test

import (
	"encoding/json"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// A running call's card shows the question it waits on, with the answer
// URL and the form's fields; a finished call's card never does.
func TestCardShowsTheQuestionTheCallWaitsOn(t *testing.T) {
	e := domain.Elicitation{ID: "q1", Server: "srv", Mode: domain.ElicitForm, Message: "Sure?",
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean","title":"Go ahead"}},"required":["confirm"]}`)}
	form := views.NewElicitationFormProps(e, "feed-inv1", "/ui/elicitations/q1")
	running := renderCard(t, invAt(domain.InvocationRunning, ""), views.CardInput{Elicitation: form})
	f := running.Find(`[data-testid="elicitation-form"]`)
	if f.Length() != 1 {
		t.Fatalf("question on a running card: got %d, want 1", f.Length())
	}
	if got := f.Find(`[data-testid="elicitation-waiting"]`).Text(); got != "srv is waiting for your answer" {
		t.Errorf("waiting: got %q", got)
	}
	if got := f.Find(`form`).AttrOr("hx-post", ""); got != "/ui/elicitations/q1" {
		t.Errorf("answer URL: got %q", got)
	}
	box := f.Find(`input[type="checkbox"][name="f.confirm"]`)
	if box.Length() != 1 || running.Find(`label[for="`+box.AttrOr("id", "")+`"]`).Length() != 1 {
		t.Errorf("the boolean is not a labelled checkbox")
	}
	for _, b := range []string{"accept", "decline", "cancel"} {
		if f.Find(`[data-testid="elicitation-`+b+`"]`).Length() != 1 {
			t.Errorf("no %s button", b)
		}
	}
	if _, ok := f.Find(`[data-testid="elicitation-decline"]`).Attr("formnovalidate"); !ok {
		t.Errorf("Decline would be stopped by the browser's validation")
	}
	done := renderCard(t, invAt(domain.InvocationSuccess, `{"content":[]}`), views.CardInput{Elicitation: form})
	if done.Find(`[data-testid="elicitation-form"]`).Length() != 0 {
		t.Errorf("a finished card shows a question")
	}
}

func TestElicitFieldsFromSchema(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"when":{"type":"string","format":"date","default":"2026-12-01"},
		"site":{"type":"string","format":"uri"},
		"n":{"type":"number","minimum":1.5,"maximum":9},
		"level":{"type":"integer","enum":[1,2,3],"default":2},
		"color":{"type":"string","enum":["r","g"],"enumNames":["Red","Green"]},
		"pick":{"type":"array","items":{"anyOf":[{"const":"x","title":"Ex"},{"const":"y","title":"Why"}]}}
	}}`)
	fields := views.ElicitFields(schema, "p")
	byName := map[string]views.ElicitFieldProps{}
	for _, f := range fields {
		byName[f.Name] = f
	}
	if len(fields) != 6 || fields[0].Name != "f.when" {
		t.Fatalf("fields %+v; want six in schema order", fields)
	}
	if f := byName["f.when"]; f.Input != "date" || f.Value != "2026-12-01" {
		t.Errorf("date: %+v", f)
	}
	if f := byName["f.site"]; f.Input != "url" {
		t.Errorf("uri: %+v", f)
	}
	if f := byName["f.n"]; f.Kind != views.ElicitNumber || f.Min != "1.5" || f.Max != "9" || f.Step != "any" {
		t.Errorf("number: %+v", f)
	}
	if f := byName["f.level"]; f.Kind != views.ElicitSelect || len(f.Options) != 3 || !f.Options[1].Selected || f.Options[1].JSON != "2" {
		t.Errorf("integer enum: %+v", f)
	}
	if f := byName["f.color"]; f.Options[0].Label != "Red" || f.Options[0].JSON != "" {
		t.Errorf("enumNames: %+v", f)
	}
	if f := byName["f.pick"]; f.Kind != views.ElicitChoices || len(f.Options) != 2 || f.Options[1].Label != "Why" {
		t.Errorf("multi-select: %+v", f)
	}
}

// A URL-mode question shows the host and opens the address in a new tab.
func TestElicitationURLModeShowsTheHost(t *testing.T) {
	e := domain.Elicitation{ID: "q2", Server: "srv", Mode: domain.ElicitURL, Message: "Sign in",
		URL: "https://login.example.com/a?b=c"}
	card := renderCard(t, invAt(domain.InvocationRunning, ""), views.CardInput{Elicitation: views.NewElicitationFormProps(e, "feed-inv1", "/ui/elicitations/q2")})
	f := card.Find(`[data-testid="elicitation-form"][data-mode="url"]`)
	if got := f.Find(`[data-testid="elicitation-open"]`).Text(); got != "Open login.example.com in a new tab" {
		t.Errorf("open button: %q", got)
	}
	if got := f.Find(`form[target="_blank"]`).AttrOr("action", ""); got != "/ui/elicitations/q2" {
		t.Errorf("open form action: %q", got)
	}
	if got := f.Find(`[data-testid="elicitation-url"]`).Text(); got != e.URL {
		t.Errorf("url shown: %q", got)
	}
}
