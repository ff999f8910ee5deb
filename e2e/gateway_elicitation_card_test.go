//go:build e2e

package e2e

import (
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestGatewayElicitationOnTheCard: an AI client that declares no
// elicitation (the official TypeScript SDK v1 client) calls the demo's
// confirm_action through /mcp. Nobody behind the gateway can answer, so
// the server's question appears as a form on the call's card in the
// dashboard, axe-clean; a person reaches it and answers it with the
// keyboard alone, and the client's call returns that answer. The client
// itself is never asked.
func TestGatewayElicitationOnTheCard(t *testing.T) {
	in := demoOnly(t, "alpha")
	invs := followInvocations(t, in)
	page := openCards(t, in, playwright.BrowserNewContextOptions{})

	type outcome struct {
		got gatewayResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		got, err := runGatewayClient("v1.mjs", gatewaySpec{URL: in.URL + "/mcp", Token: in.Token, Calls: []gatewayCall{
			{Name: "alpha__confirm_action", Arguments: map[string]any{"action": "merge the branch"}},
		}})
		done <- outcome{got, err}
	}()

	id := invs.firstAfter(t, 0, "the gateway's confirm_action call", func(v invocation) bool { return v.Tool == "confirm_action" }).ID
	form := feedCard(id) + ` [data-testid="elicitation-form"]`
	waitVisible(t, page, form, "the question on the gateway call's card")
	if got := text(t, page, form+` [data-testid="elicitation-waiting"]`); got != "alpha is waiting for your answer" {
		t.Errorf("waiting: got %q", got)
	}
	if got := text(t, page, form+` [data-testid="elicitation-message"]`); got != "Go ahead and merge the branch?" {
		t.Errorf("message: got %q", got)
	}
	if n := count(t, page, form+` [data-testid="elicitation-required"]`); n != 1 {
		t.Errorf("required marks: got %d, want 1 (confirm)", n)
	}
	var list struct {
		Elicitations []elicitationItem `json:"elicitations"`
	}
	apiGet(t, in, "/api/v1/elicitations", &list)
	if len(list.Elicitations) != 1 || list.Elicitations[0].InvocationID == nil || *list.Elicitations[0].InvocationID != id {
		t.Errorf("the API lists %+v; want the gateway call's one question", list.Elicitations)
	}
	checkAxe(t, page, "a gateway call's card with a question")

	// Keyboard only, from wherever focus is: Tab to the checkbox, tick
	// it, Tab to the reason and type it, Tab to Accept and press Enter.
	checkbox := form + ` input[name="f.confirm"]`
	reached := false
	for range 200 {
		press(t, page, "Tab")
		var on bool
		evalJSON(t, page, `sel => JSON.stringify(!!document.activeElement?.matches(sel))`, checkbox, &on)
		if on {
			reached = true
			break
		}
	}
	if !reached {
		t.Fatalf("Tab never reached the question's first field (%s)", checkbox)
	}
	press(t, page, "Space")
	press(t, page, "Tab")
	if err := page.Keyboard().Type("reviewed twice"); err != nil {
		t.Fatal(err)
	}
	press(t, page, "Tab")
	if got := focused(t, page).TestID; got != "elicitation-accept" {
		t.Fatalf("Tab after the last field: focus on %q, want Accept", got)
	}
	press(t, page, "Enter")

	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	answer := res.got.Calls[0]
	if answer.Error != nil || isToolError(answer.Result) {
		t.Fatalf("the client's call: got %s %+v, want the person's answer", clip(answer.Result), answer.Error)
	}
	for _, want := range []string{`\"action\":\"accept\"`, `\"confirm\":true`, `\"reason\":\"reviewed twice\"`} {
		if !strings.Contains(string(answer.Result), want) {
			t.Errorf("the client's call: got %s, want %s in it", clip(answer.Result), want)
		}
	}
	if len(res.got.Elicited) != 0 {
		t.Errorf("a client without elicitation was asked %d times", len(res.got.Elicited))
	}

	final := invs.waitFinal(t, id)
	if final.Status != "success" {
		t.Errorf("the card's call ended %s, want success", final.Status)
	}
	waitCard(t, page, id, "success")
	waitGone(t, page, form, "the question leaves the card")
	ask := feedCard(id) + ` [data-testid="invocation-ask"][data-method="elicit"][data-outcome="answered_by_person"]`
	waitVisible(t, page, ask, "the ask says the person answered")
	if got := text(t, page, ask+` [data-testid="invocation-ask-outcome"]`); got != "answered by you, in Switchboard" {
		t.Errorf("ask outcome: got %q", got)
	}
	checkAxe(t, page, "a gateway call's card whose question was answered")
}
