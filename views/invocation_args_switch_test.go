package views_test

import (
	"encoding/json"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// TestBooleanArgumentsReadAsSwitches: a card's read-only booleans are
// switches that cannot change, each with its state written beside it.
func TestBooleanArgumentsReadAsSwitches(t *testing.T) {
	tool := &domain.Tool{Name: "echo", InputSchema: []byte(`{"type":"object","properties":{"flag":{"type":"boolean"}}}`)}
	inv := invAt(domain.InvocationSuccess, `{"content":[]}`)
	inv.Arguments = json.RawMessage(`{"flag":true,"extra":false}`)
	card := renderCard(t, inv, views.CardInput{Tool: tool})
	switches := card.Find(`[data-testid="invocation-args-form"] input[type="checkbox"][role="switch"]`)
	if switches.Length() != 2 {
		t.Fatalf("switches: got %d, want 2", switches.Length())
	}
	for i, want := range []bool{true, false} {
		s := switches.Eq(i)
		if _, checked := s.Attr("checked"); checked != want {
			t.Errorf("switch %d checked: got %v, want %v", i, checked, want)
		}
		if _, disabled := s.Attr("disabled"); !disabled {
			t.Errorf("switch %d can change", i)
		}
	}
	states := card.Find(`[data-testid="invocation-arg-switch-state"]`)
	if states.Length() != 2 || states.Eq(0).Find(".run-switch-on").Text() != "On" || states.Eq(0).Find(".run-switch-off").Text() != "Off" {
		t.Errorf("switch states: got %d, %q", states.Length(), states.Text())
	}
}
