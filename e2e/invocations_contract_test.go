//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// The tool-call card's behaviour end to end, against the demo server as a
// stdio child of the real binary. How results' content renders is in
// invocations_content_test.go, accessibility in invocations_a11y_test.go.

// checkSequence asserts a card went pending -> running -> success: it
// showed running before success, and success never right after pending.
func checkSequence(t *testing.T, seq []string, final string) {
	t.Helper()
	ri, si := slices.Index(seq, "running"), slices.Index(seq, final)
	if si < 0 {
		t.Errorf("card status sequence %q: never showed %s", seq, final)
	}
	if ri < 0 || (si >= 0 && ri > si) {
		t.Errorf("card status sequence %q: want running seen before %s (a card always passes through running)", seq, final)
	}
	for i := 1; i < len(seq); i++ {
		if seq[i-1] == "pending" && seq[i] == final {
			t.Errorf("card status sequence %q: %s directly follows pending", seq, final)
		}
	}
}

// TestInvocationCardMountsAndTransitions: T1 items 1 and 3. The card
// mounts in the feed as the call starts, with the tool name shown and the
// arguments collapsed; it goes pending -> running -> success with the
// badge saying so, and then renders the result, open.
func TestInvocationCardMountsAndTransitions(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	inv := callTool(t, in, "alpha", "long_task", map[string]any{"steps": 3, "stepMillis": 400})
	if inv.Status != "pending" {
		t.Errorf("202 answer status: got %q, want pending", inv.Status)
	}

	card := feedCard(inv.ID)
	waitFor(t, page, card, "the card mounts live in the feed")
	if got := text(t, page, card+` [data-testid="invocation-tool"]`); got != "long_task" {
		t.Errorf("invocation-tool: got %q, want long_task", got)
	}
	if !visible(t, page, card+` [data-testid="invocation-tool"]`) {
		t.Errorf("invocation-tool is not visible on the mounted card")
	}
	if got := attr(t, page, card, "role"); got != "region" {
		t.Errorf("card role: got %q, want region", got)
	}
	if got := attr(t, page, card, "aria-label"); !strings.Contains(got, "long_task") {
		t.Errorf("card aria-label: got %q, want it to name long_task", got)
	}
	var argsOpen bool
	evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).open)`, card+` [data-testid="invocation-args"]`, &argsOpen)
	if argsOpen {
		t.Errorf("arguments <details> open on mount, want collapsed")
	}
	if seq := cardSeq(t, page, inv.ID); len(seq) == 0 || (seq[0] != "pending" && seq[0] != "running") {
		t.Errorf("first status the card showed: %q, want pending (or running)", seq)
	}

	waitCard(t, page, inv.ID, "running")
	if got := text(t, page, card+` [data-testid="invocation-badge"]`); !strings.Contains(got, "Running") {
		t.Errorf("badge while running: got %q, want Running…", got)
	}
	if got := attr(t, page, card+` [data-testid="invocation-badge"]`, "aria-live"); got != "polite" {
		t.Errorf("badge aria-live: got %q, want polite", got)
	}
	waitCard(t, page, inv.ID, "success")
	if got := text(t, page, card+` [data-testid="invocation-badge"]`); !strings.Contains(got, "Done") {
		t.Errorf("badge on success: got %q, want ✓ Done", got)
	}
	checkSequence(t, cardSeq(t, page, inv.ID), "success")
	res := card + ` [data-testid="invocation-result"]`
	var open bool
	evalJSON(t, page, `sel => JSON.stringify(!!document.querySelector(sel)?.open)`, res, &open)
	if !open {
		t.Errorf("result <details> closed on success, want open")
	}
	if got := text(t, page, res+` [data-testid="content-item"][data-type="text"]`); !strings.Contains(got, "long_task finished 3 steps") {
		t.Errorf("result text: got %q, want the long_task summary", got)
	}
	if !visible(t, page, res+` [data-testid="content-item"]`) {
		t.Errorf("the result's content item is not visible")
	}
	if got := text(t, page, card+` [data-testid="invocation-duration"]`); got == "" {
		t.Errorf("no duration on the finished card")
	}
	if n := count(t, page, card+` [data-testid="invocation-cancel"]`); n != 0 {
		t.Errorf("a finished card still offers Cancel (%d buttons)", n)
	}
	waitTrue(t, page, `() => /long_task.*Done/.test(document.getElementById('activity-feed-status')?.textContent || '')`, nil,
		"the feed's live region announces long_task: ✓ Done")
}

// TestInvocationFastCallSequence: T1 item 3 with a call that finishes in
// about a millisecond (add): the card must still show running between
// pending and success.
func TestInvocationFastCallSequence(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	for i := range 3 {
		inv := callTool(t, in, "alpha", "add", map[string]any{"a": i, "b": 2})
		waitCard(t, page, inv.ID, "success")
		seq := cardSeq(t, page, inv.ID)
		t.Logf("call %d: card status sequence %q", i, seq)
		checkSequence(t, seq, "success")
	}
}

// TestInvocationArgsExpand: T1 item 2. Opening the arguments shows the
// pretty-printed JSON; opening again collapses them.
func TestInvocationArgsExpand(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	args := map[string]any{"message": "hello, arguments", "nested": map[string]any{"list": []int{1, 2}, "flag": true}}
	inv := callTool(t, in, "alpha", "echo", args)
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "success")

	box := card + ` [data-testid="invocation-args"]`
	pre := box + ` [data-testid="invocation-args-json"]`
	if visible(t, page, pre) {
		t.Errorf("argument JSON visible before the arguments are expanded")
	}
	click(t, page, box+` > summary`)
	waitVisible(t, page, pre, "arguments expand")
	var got any
	raw := textRaw(t, page, pre)
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("argument view is not JSON: %q (%v)", raw, err)
	}
	want := map[string]any{"message": "hello, arguments", "nested": map[string]any{"list": []any{1.0, 2.0}, "flag": true}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("argument JSON: got %v, want %v", got, want)
	}
	if !strings.Contains(raw, "\n  \"message\": ") || !strings.Contains(raw, "\n    \"list\": [") {
		t.Errorf("argument JSON is not pretty-printed (two-space indent): %q", raw)
	}

	// The read-only form view, and back to raw JSON.
	form := box + ` [data-testid="invocation-args-form"]`
	if visible(t, page, form) {
		t.Errorf("form view visible before it was asked for, beside the raw JSON (hidden attribute %v, computed display %s)",
			hasAttr(t, page, form, "hidden"), cssDisplay(t, page, form))
	}
	click(t, page, box+` [data-testid="invocation-args-view"]`)
	waitVisible(t, page, form, "the form view shows")
	if visible(t, page, pre) {
		t.Errorf("raw JSON still visible in form view")
	}
	// The form view draws each argument with the Run form's control.
	msg := form + ` [data-testid="invocation-arg-field"][data-name="message"] input`
	if got, err := page.Locator(msg).InputValue(); err != nil || got != "hello, arguments" {
		t.Errorf("form view message: got %q (%v), want its value", got, err)
	}
	if got := attr(t, page, box+` [data-testid="invocation-args-view"]`, "aria-pressed"); got != "true" {
		t.Errorf("form view toggle aria-pressed: got %q, want true", got)
	}
	click(t, page, box+` [data-testid="invocation-args-view"]`)
	// cards.js toggles synchronously in the click handler.
	waitVisible(t, page, pre, "back to raw JSON")
	if visible(t, page, form) {
		t.Errorf("form view still visible after switching back to raw JSON (hidden attribute %v, computed display %s)",
			hasAttr(t, page, form, "hidden"), cssDisplay(t, page, form))
	}

	click(t, page, box+` > summary`)
	waitHidden(t, page, pre, "arguments collapse again")
}

// textRaw is the exact textContent of the first match of selector.
func textRaw(t *testing.T, page playwright.Page, selector string) string {
	t.Helper()
	var got *string
	evalJSON(t, page, `sel => { const el = document.querySelector(sel); return JSON.stringify(el ? el.textContent : null); }`, selector, &got)
	if got == nil {
		t.Fatalf("no element matches %s", selector)
	}
	return *got
}

// TestInvocationErrorRetry: T1 item 4. An isError result shows the error
// badge with the result collapsed and a Retry button; Retry runs the same
// call as a new card that goes through running.
func TestInvocationErrorRetry(t *testing.T) {
	in := demoOnly(t, "alpha")
	invs := followInvocations(t, in)
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	inv := callTool(t, in, "alpha", "fail_always", map[string]any{})
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "error")
	checkSequence(t, cardSeq(t, page, inv.ID), "error")
	if got := text(t, page, card+` [data-testid="invocation-badge"]`); !strings.Contains(got, "Error") {
		t.Errorf("badge on error: got %q, want ✗ Error", got)
	}
	if n := count(t, page, card+` [data-testid="invocation-result"]`); n == 1 {
		var open bool
		evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).open)`, card+` [data-testid="invocation-result"]`, &open)
		if !open {
			t.Errorf("result <details> closed on error, want it open: a failed call shows its error first")
		}
	} else {
		t.Errorf("an error card has %d invocation-result sections, want 1", n)
	}
	retry := card + ` [data-testid="invocation-retry"]`
	waitVisible(t, page, retry, "Retry on the error card")

	mark := invs.len()
	click(t, page, retry)
	again := invs.firstAfter(t, mark, "the retried invocation", func(v invocation) bool {
		return v.RetryOf != nil && *v.RetryOf == inv.ID
	})
	if again.ID == inv.ID {
		t.Fatalf("Retry reused invocation %s, want a new one", inv.ID)
	}
	waitFor(t, page, feedCard(again.ID), "Retry mounts a new card")
	waitCard(t, page, again.ID, "error")
	checkSequence(t, cardSeq(t, page, again.ID), "error")
	if got := attr(t, page, card, "data-status"); got != "error" {
		t.Errorf("the first card after Retry: data-status %q, want it to stay error", got)
	}
	var order []string
	evalJSON(t, page, `() => JSON.stringify([...document.querySelectorAll('#calls-list [data-testid="call-row"]')].map(c => c.dataset.invocation))`, nil, &order)
	if len(order) < 2 || order[0] != again.ID {
		t.Errorf("feed order %q: want the retried card %s first", order, again.ID)
	}
}

// cssDisplay is the computed display of the first match of selector.
func cssDisplay(t *testing.T, page playwright.Page, selector string) string {
	t.Helper()
	var d string
	evalJSON(t, page, `sel => JSON.stringify(getComputedStyle(document.querySelector(sel)).display)`, selector, &d)
	return d
}

// hasAttr reports whether the first match of selector has attribute name.
func hasAttr(t *testing.T, page playwright.Page, selector, name string) bool {
	t.Helper()
	var b bool
	evalJSON(t, page, `([sel, name]) => JSON.stringify(!!document.querySelector(sel)?.hasAttribute(name))`, []any{selector, name}, &b)
	return b
}
