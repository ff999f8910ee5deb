package views_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// typedTool has one property of every kind the Run form draws.
var typedTool = &domain.Tool{Name: "typed", InputSchema: json.RawMessage(`{"type":"object","properties":{
	"q":{"type":"string","description":"What to look for."},
	"mode":{"enum":["fast","slow"]},
	"size":{"enum":["xs","s","m","l","xl","xxl"]},
	"flag":{"type":"boolean"},
	"n":{"type":"integer","minimum":1},
	"opts":{"type":"object"}
},"required":["q"]}`)}

func typedCard(t *testing.T, args string, tool *domain.Tool) *goquery.Selection {
	t.Helper()
	inv := invAt(domain.InvocationSuccess, `{"content":[]}`)
	inv.Arguments = json.RawMessage(args)
	return renderCard(t, inv, views.CardInput{Tool: tool})
}

// argField is the read-only field of one argument in the card's form view.
func argField(t *testing.T, card *goquery.Selection, name string) *goquery.Selection {
	t.Helper()
	f := card.Find(`[data-testid="invocation-args-form"] [data-testid="invocation-arg-field"]`).FilterFunction(func(_ int, s *goquery.Selection) bool {
		return s.AttrOr("data-name", "") == name
	})
	if f.Length() != 1 {
		t.Fatalf("form view field %q: got %d, want 1", name, f.Length())
	}
	return f
}

// TestArgsFormTypedWidgets: the card's form view draws each
// argument with the Run form's control for its type, filled with what was
// sent and unchangeable, rather than as plain text.
func TestArgsFormTypedWidgets(t *testing.T) {
	card := typedCard(t, `{"q":"a * b","mode":"slow","size":"xl","flag":true,"n":3,"opts":{"deep":[1,2]},"extra":false}`, typedTool)
	tests := []struct {
		name, kind, control string
		disabled, readonly  bool
	}{
		{"q", "text", `input[type="text"]`, false, true},
		{"mode", "radio", `fieldset[role="radiogroup"] input[type="radio"]`, false, false},
		{"size", "select", `select`, true, false},
		{"flag", "switch", `input[type="checkbox"][role="switch"]`, true, false},
		{"n", "integer", `input[type="number"]`, false, true},
		{"opts", "json", `textarea`, false, true},
		{"extra", "switch", `input[type="checkbox"][role="switch"]`, true, false}, // not in the schema: kind from the value
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := argField(t, card, tt.name)
			if got := f.AttrOr("data-kind", ""); got != tt.kind {
				t.Errorf("kind: got %q, want %q", got, tt.kind)
			}
			c := f.Find(tt.control)
			if c.Length() == 0 {
				t.Fatalf("control %s: none in %s", tt.control, outer(f))
			}
			if _, ok := c.First().Attr("disabled"); ok != tt.disabled {
				t.Errorf("disabled: got %v, want %v", ok, tt.disabled)
			}
			if _, ok := c.First().Attr("readonly"); ok != tt.readonly {
				t.Errorf("readonly: got %v, want %v", ok, tt.readonly)
			}
			if c.Is(`[data-testid^="run-"]`) {
				t.Errorf("read-only control carries a Run form test id: %s", outer(c))
			}
		})
	}
	if got := argField(t, card, "q").Find("input").AttrOr("value", ""); got != "a * b" {
		t.Errorf("text value: got %q, want %q", got, "a * b")
	}
	if got := argField(t, card, "n").Find("input").AttrOr("value", ""); got != "3" {
		t.Errorf("number value: got %q, want 3", got)
	}
	if got := argField(t, card, "mode").Find(`fieldset`).AttrOr("disabled", "missing"); got == "missing" {
		t.Errorf("radio group fieldset not disabled")
	}
	if got := argField(t, card, "mode").Find(`input[checked]`).AttrOr("value", ""); got != `"slow"` {
		t.Errorf("checked radio: got %q, want \"slow\"", got)
	}
	if got := argField(t, card, "size").Find(`option[selected]`).AttrOr("value", ""); got != `"xl"` {
		t.Errorf("selected option: got %q, want \"xl\"", got)
	}
	if _, on := argField(t, card, "flag").Find("input").Attr("checked"); !on {
		t.Errorf("switch of true is off")
	}
	if _, on := argField(t, card, "extra").Find("input").Attr("checked"); on {
		t.Errorf("switch of false is on")
	}
	if got := argField(t, card, "opts").Find("textarea").Text(); got != "{\n  \"deep\": [\n    1,\n    2\n  ]\n}" {
		t.Errorf("nested object: got %q, want it indented", got)
	}
	if got := argField(t, card, "q").Find(`[data-testid="invocation-arg-help"]`).Text(); got != "What to look for." {
		t.Errorf("help: got %q", got)
	}
	if card.Find(`[data-testid="invocation-args-form"] .run-required-note`).Length() != 1 {
		t.Errorf("the required mark is not explained")
	}
	// Schema order, then arguments the schema does not list.
	var order []string
	card.Find(`[data-testid="invocation-arg-field"]`).Each(func(_ int, s *goquery.Selection) { order = append(order, s.AttrOr("data-name", "")) })
	if want := []string{"q", "mode", "size", "flag", "n", "opts", "extra"}; !equalStrings(order, want) {
		t.Errorf("field order: got %v, want %v", order, want)
	}
}

// TestArgsFormValueOutsideSchema: a value the schema does not allow is
// still shown whole, in the control its own type calls for.
func TestArgsFormValueOutsideSchema(t *testing.T) {
	card := typedCard(t, `{"mode":"medium","flag":"yes","n":"three"}`, typedTool)
	for name, kind := range map[string]string{"mode": "text", "flag": "text", "n": "text"} {
		f := argField(t, card, name)
		if got := f.AttrOr("data-kind", ""); got != kind {
			t.Errorf("%s kind: got %q, want %q", name, got, kind)
		}
	}
	if got := argField(t, card, "mode").Find("input").AttrOr("value", ""); got != "medium" {
		t.Errorf("enum value outside the enum: got %q, want medium", got)
	}
}

// TestArgsFormUnknownTool: without the tool's schema each argument still
// gets the control its value's type calls for.
func TestArgsFormUnknownTool(t *testing.T) {
	card := typedCard(t, `{"b":true,"n":1.5,"s":"x","l":[1]}`, nil)
	for name, kind := range map[string]string{"b": "switch", "n": "number", "s": "text", "l": "json"} {
		if got := argField(t, card, name).AttrOr("data-kind", ""); got != kind {
			t.Errorf("%s kind: got %q, want %q", name, got, kind)
		}
	}
}

// TestArgsFormRadiosPerCard: two cards' radio groups never share a name,
// or checking one card's option would uncheck the other's.
func TestArgsFormRadiosPerCard(t *testing.T) {
	a := typedCard(t, `{"mode":"fast"}`, typedTool)
	inv := invAt(domain.InvocationSuccess, `{"content":[]}`)
	inv.ID, inv.Arguments = "zzzzzz999999", json.RawMessage(`{"mode":"fast"}`)
	b := renderCard(t, inv, views.CardInput{Tool: typedTool})
	na, nb := a.Find(`input[type="radio"]`).AttrOr("name", ""), b.Find(`input[type="radio"]`).AttrOr("name", "")
	if na == "" || na == nb {
		t.Errorf("radio names: got %q and %q, want distinct", na, nb)
	}
}

// TestCardHeaderTogglesArguments: the header's tool name is
// a button that controls the arguments section and says whether it is
// open, with no control nested in another.
func TestCardHeaderTogglesArguments(t *testing.T) {
	for _, tt := range []struct {
		name   string
		status domain.InvocationStatus
		open   string
	}{{"closed-by-default", domain.InvocationSuccess, "false"}, {"open-awaiting-approval", domain.InvocationAwaitingApproval, "true"}} {
		t.Run(tt.name, func(t *testing.T) {
			inv := invAt(tt.status, "")
			card := renderCard(t, inv, views.CardInput{URLs: views.CardURLs{Copy: invURLs.Copy, Approve: "/a", Deny: "/d"}})
			btn := card.Find(`header [data-testid="invocation-tool"] button[data-testid="invocation-head-toggle"]`)
			if btn.Length() != 1 {
				t.Fatalf("header toggle: got %d, want 1", btn.Length())
			}
			if got := btn.AttrOr("type", ""); got != "button" {
				t.Errorf("toggle type: got %q, want button", got)
			}
			if got := btn.Text(); got != "echo" {
				t.Errorf("toggle text: got %q, want the tool name", got)
			}
			args := card.Find(`details[data-testid="invocation-args"]`)
			if id := args.AttrOr("id", ""); id == "" || btn.AttrOr("aria-controls", "") != id {
				t.Errorf("aria-controls: got %q, want the arguments' id %q", btn.AttrOr("aria-controls", ""), id)
			}
			if got := btn.AttrOr("aria-expanded", ""); got != tt.open {
				t.Errorf("aria-expanded: got %q, want %q", got, tt.open)
			}
			if _, open := args.Attr("open"); (tt.open == "true") != open {
				t.Errorf("arguments open: got %v, want %s", open, tt.open)
			}
			hint := card.Find("#" + btn.AttrOr("aria-describedby", "none"))
			if hint.Length() != 1 || hint.Text() == "" {
				t.Errorf("toggle description: got %d elements (%q)", hint.Length(), hint.Text())
			}
			const interactive = "button, a, input, select, textarea, summary"
			card.Find("header").Find(interactive).Each(func(_ int, s *goquery.Selection) {
				if s.Find(interactive).Length() != 0 {
					t.Errorf("interactive element nested in another in the header: %s", outer(s))
				}
			})
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func outer(s *goquery.Selection) string {
	h, _ := goquery.OuterHtml(s)
	return h
}

// TestArgsFormJSONIndentNotCut: an object short as sent is never reported
// cut for the spaces its indentation adds; it is shown compact instead.
func TestArgsFormJSONIndentNotCut(t *testing.T) {
	doc := `{"deep":` + strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40) + `}`
	inv := invAt(domain.InvocationSuccess, `{"content":[]}`)
	inv.Arguments = json.RawMessage(doc)
	p := views.NewInvocationCardProps(inv, views.CardInput{})
	if p.ArgsCut || len(p.ArgsFields) != 1 {
		t.Fatalf("got %d fields, cut %v; want 1, not cut", len(p.ArgsFields), p.ArgsCut)
	}
	if want := doc[len(`{"deep":`) : len(doc)-1]; p.ArgsFields[0].Value != want {
		t.Errorf("value: got %q, want the compact object", p.ArgsFields[0].Value)
	}
}
