//go:build e2e

package e2e

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestApprovalCard: an AI client's call through the gateway to the demo's
// destructive delete_note (policy ask by default) waits on its card with
// Approve and Deny; axe finds nothing in light and dark; Approve works
// from the keyboard, the call runs and the client gets the server's
// answer.
func TestApprovalCard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	writeSettings(t, path, servers{"alpha": demoStdio("alpha", nil)})
	// A hold longer than any wait below, so a slow machine never answers
	// the client before the person does.
	in := run(t, path, "--settings", path, "--approval-timeout", "150s")
	in.waitState(t, "alpha", "connected")
	invs := followInvocations(t, in)

	pages := map[string]playwright.Page{}
	for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
		pages[string(*scheme)] = openCards(t, in, playwright.BrowserNewContextOptions{ColorScheme: scheme})
	}

	mark := invs.len()
	type outcome struct {
		r   gatewayResult
		err error
	}
	answered := make(chan outcome, 1)
	go func() {
		r, err := runGatewayClient("v1.mjs", gatewaySpec{URL: in.URL + "/mcp/alpha", Token: in.Token, TimeoutMs: 170_000,
			Calls: []gatewayCall{{Name: "delete_note", Arguments: map[string]any{"id": "shopping"}}}})
		answered <- outcome{r, err}
	}()
	held := invs.firstAfter(t, mark, "a held delete_note call", func(v invocation) bool {
		return v.Tool == "delete_note" && v.Status == "awaiting_approval"
	})

	for _, scheme := range []string{"light", "dark"} {
		page := pages[scheme]
		card := feedCard(held.ID)
		waitCard(t, page, held.ID, "awaiting_approval")
		waitVisible(t, page, card+` [data-testid="invocation-approval"][role="alert"]`, scheme+": the approval question")
		waitVisible(t, page, card+` [data-testid="invocation-args-json"]`, scheme+": the arguments, open")
		checkAxe(t, page, scheme+": a call awaiting approval")
	}

	page := pages["light"]
	approve := feedCard(held.ID) + ` [data-testid="invocation-approve"]`
	if err := page.Locator(approve).Focus(); err != nil {
		t.Fatalf("focus Approve: %v", err)
	}
	if a := focused(t, page); a.TestID != "invocation-approve" || a.Tag != "button" {
		t.Fatalf("focused: got %+v, want the Approve button", a)
	}
	press(t, page, "Enter")
	waitCard(t, page, held.ID, "success")
	if got := invs.waitFinal(t, held.ID).Status; got != "success" {
		t.Errorf("approved call: got %s, want success", got)
	}

	select {
	case o := <-answered:
		if o.err != nil {
			t.Fatal(o.err)
		}
		var res struct {
			IsError bool `json:"isError"`
		}
		if a := o.r.Calls[0]; a.Error != nil || json.Unmarshal(a.Result, &res) != nil || res.IsError {
			t.Errorf("the client's answer: got %+v (%s), want the server's result", a.Error, a.Result)
		}
	case <-time.After(waitLong):
		t.Fatal("the client got no answer after the approval")
	}
}
