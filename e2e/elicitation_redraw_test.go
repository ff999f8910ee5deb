//go:build e2e

package e2e

import (
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// announceProbe records every text the page's live region says.
const announceProbe = `() => {
	const region = document.getElementById('activity-feed-status');
	window.__said = [];
	new MutationObserver(() => window.__said.push(region.textContent)).observe(region, {childList: true, characterData: true, subtree: true});
}`

// reconnectStream drops the page's event stream as a network blip would;
// the SSE extension opens it again, and the new stream starts by drawing
// the whole feed again (every card, out of band).
const reconnectStream = `() => {
	const es = document.body['htmx-internal-data'].sseEventSource;
	es.close();
	es.onerror(new Event('error'));
}`

// TestElicitationFormSurvivesCardRedraws: while the demo's confirm_action
// waits for the person, the page stream redraws the call list around its
// open card (here by reconnecting, which draws the whole list again).
// What the person typed stays, and so does their focus, because the form
// is the same node throughout.
// Once answered, focus is on the card, stays there while the card is
// redrawn to its end, and the live region says what was decided.
func TestElicitationFormSurvivesCardRedraws(t *testing.T) {
	in := demoOnly(t, "alpha")
	invs := followInvocations(t, in)
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	if _, err := page.Evaluate(announceProbe); err != nil {
		t.Fatal(err)
	}
	id := callTool(t, in, "alpha", "confirm_action", map[string]any{"action": "ship it"}).ID
	card := feedCard(id)
	form := card + ` [data-testid="elicitation-form"]`
	waitVisible(t, page, form, "the question on the card")

	if err := page.Locator(form + ` input[name="f.reason"]`).Focus(); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard().Type("typed during redraws"); err != nil {
		t.Fatal(err)
	}
	// Mark the nodes shown now; each reconnect draws the whole call list
	// again, the open card kept in it.
	if _, err := page.Evaluate(`form => { document.querySelector(form).__old = true; }`, form); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := page.Evaluate(`() => { document.getElementById('calls-list').__old = true; }`); err != nil {
			t.Fatal(err)
		}
		if _, err := page.Evaluate(reconnectStream); err != nil {
			t.Fatal(err)
		}
		waitTrue(t, page, `() => { const l = document.getElementById('calls-list'); return l && !l.__old; }`, nil, "the list is redrawn")
		waitFor(t, page, form, "the question still on the card")
	}
	var kept struct {
		Value     string `json:"value"`
		SameForm  bool   `json:"sameForm"`
		Focused   bool   `json:"focused"`
		InNewCard bool   `json:"inNewCard"`
	}
	evalJSON(t, page, `([card, form]) => {
		const f = document.querySelector(form), input = f && f.querySelector('input[name="f.reason"]');
		return JSON.stringify({
			value: input ? input.value : '',
			sameForm: !!(f && f.__old),
			focused: document.activeElement === input,
			inNewCard: !!(f && f.closest(card)),
		});
	}`, []string{card, form}, &kept)
	if kept.Value != "typed during redraws" {
		t.Errorf("after redraws the field holds %q, want what was typed", kept.Value)
	}
	if !kept.SameForm || !kept.InNewCard {
		t.Errorf("form node kept: %v, inside the open card: %v; want both", kept.SameForm, kept.InNewCard)
	}
	if !kept.Focused {
		t.Errorf("focus left the field during redraws: on %+v", focused(t, page))
	}
	checkAxe(t, page, "a question waiting on a card that keeps being redrawn")

	// Tick the box and send with Enter, by keyboard.
	press(t, page, "Shift+Tab")
	press(t, page, "Space")
	press(t, page, "Tab")
	press(t, page, "Enter")
	waitTrue(t, page, `card => document.activeElement === document.querySelector(card)`, card, "focus moves to the card after answering")

	done := invs.waitFinal(t, id)
	if done.Status != "success" || !strings.Contains(string(done.Result), `typed during redraws`) || !strings.Contains(string(done.Result), `\"confirm\":true`) {
		t.Errorf("the call ended %s with %s; want the person's answer", done.Status, clip(done.Result))
	}
	waitCard(t, page, id, "success")
	waitGone(t, page, form, "the question leaves the card")
	waitTrue(t, page, `card => document.activeElement === document.querySelector(card)`, card, "focus stays on the card after it finished")
	var said []string
	evalJSON(t, page, `() => JSON.stringify(window.__said)`, nil, &said)
	found := false
	for _, s := range said {
		found = found || s == "Answer sent to alpha"
	}
	if !found {
		t.Errorf("the live region said %q; want it to say the answer was sent", said)
	}
	checkAxe(t, page, "a card whose question was answered, focused")
}
