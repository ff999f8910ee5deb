//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// longMessage is about 5,000 characters on 100 lines, the last one marked.
func longMessage() string {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "line %03d of the long echo: lorem ipsum dolor sit amet\n", i)
	}
	b.WriteString("THE LAST LINE")
	return b.String()
}

// TestInvocationTruncation: T1 item 6. A ~5,000-character result is
// collapsed behind "Show more" with the whole text in the DOM; Show more
// reveals all of it.
func TestInvocationTruncation(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	msg := longMessage()
	inv := callTool(t, in, "alpha", "echo", map[string]any{"message": msg})
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "success")

	more := card + ` [data-testid="content-show-more"]`
	waitVisible(t, page, more, "Show more on a 5,000-character result")
	body := card + ` [data-testid="content-text"]`
	type clipState struct {
		Client, Scroll int
		HasLast        bool
		Expanded       string
	}
	read := func() clipState {
		var s clipState
		evalJSON(t, page, `([sel, more]) => { const el = document.querySelector(sel), b = document.querySelector(more);
			return JSON.stringify({Client: el.clientHeight, Scroll: el.scrollHeight, HasLast: el.textContent.includes('THE LAST LINE'),
				Expanded: b.getAttribute('aria-expanded')}); }`, []any{body, more}, &s)
		return s
	}
	s := read()
	if !(s.Scroll > s.Client+10) {
		t.Errorf("long text not collapsed: clientHeight %d, scrollHeight %d", s.Client, s.Scroll)
	}
	if !s.HasLast {
		t.Errorf("the collapsed text does not hold the full message in the DOM")
	}
	if s.Expanded != "false" {
		t.Errorf("Show more aria-expanded: got %q, want false", s.Expanded)
	}
	click(t, page, more)
	waitTrue(t, page, `sel => { const el = document.querySelector(sel); return el.scrollHeight <= el.clientHeight + 1; }`, body,
		"Show more reveals the whole text")
	if s := read(); s.Expanded != "true" {
		t.Errorf("after Show more, aria-expanded: got %q, want true", s.Expanded)
	}
	if got := text(t, page, more); got != "Show less" {
		t.Errorf("after Show more the button says %q, want Show less", got)
	}
}

// TestInvocationCopyFull: T1 item 7. Copy result puts the full message on
// the clipboard, not the clipped view; Copy arguments puts the full
// arguments JSON.
func TestInvocationCopyFull(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := openCards(t, in, playwright.BrowserNewContextOptions{
		Permissions: []string{"clipboard-read", "clipboard-write"}})
	msg := longMessage()
	inv := callTool(t, in, "alpha", "echo", map[string]any{"message": msg})
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "success")
	waitVisible(t, page, card+` [data-testid="content-show-more"]`, "the result shows clipped")

	click(t, page, card+` [data-testid="invocation-copy-result"]`)
	waitTrue(t, page, `async want => (await navigator.clipboard.readText()) === want`, msg, "Copy result puts the full message on the clipboard")

	click(t, page, card+` [data-testid="invocation-args"] > summary`)
	click(t, page, card+` [data-testid="invocation-copy-args"]`)
	waitTrue(t, page, `async want => { try { return JSON.parse(await navigator.clipboard.readText()).message === want; } catch (e) { return false; } }`,
		msg, "Copy arguments puts the full arguments JSON on the clipboard")
}

// TestInvocationLongArgs: arguments over 100 lines collapse
// behind "Expand arguments", and Copy arguments still copies all of them.
func TestInvocationLongArgs(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := openCards(t, in, playwright.BrowserNewContextOptions{
		Permissions: []string{"clipboard-read", "clipboard-write"}})
	// echo's schema allows extra properties, so a 150-item list rides along
	// with its message.
	lines := make([]string, 150)
	for i := range lines {
		lines[i] = fmt.Sprintf("item %d", i)
	}
	body, _ := json.Marshal(map[string]any{"message": "long args", "items": lines})
	code, out := callToolRaw(t, in, "alpha", "echo", body)
	if code != 202 {
		t.Fatalf("call: got %d %s, want 202", code, clip(out))
	}
	var inv invocation
	_ = json.Unmarshal(out, &inv)
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "success")
	click(t, page, card+` [data-testid="invocation-args"] > summary`)
	expand := card + ` [data-testid="invocation-args-expand"]`
	waitVisible(t, page, expand, "Expand arguments on 150+ lines of arguments")
	pre := card + ` [data-testid="invocation-args-json"]`
	waitTrue(t, page, `sel => { const el = document.querySelector(sel); return el.scrollHeight > el.clientHeight + 10; }`, pre, "long arguments collapsed")
	var before int
	evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).clientHeight)`, pre, &before)
	click(t, page, expand)
	// Expanded, the block grows (it may still scroll inside .inv-json's own
	// max-height).
	waitTrue(t, page, `([sel, before]) => document.querySelector(sel).clientHeight > before + 10`, []any{pre, before},
		"Expand arguments shows more of them")
	if got := attr(t, page, expand, "aria-expanded"); got != "true" {
		t.Errorf("Expand arguments aria-expanded: got %q, want true", got)
	}
	click(t, page, card+` [data-testid="invocation-copy-args"]`)
	waitTrue(t, page, `async () => { try { return JSON.parse(await navigator.clipboard.readText()).items.length === 150; } catch (e) { return false; } }`,
		nil, "Copy arguments copies all 150 items")
}
