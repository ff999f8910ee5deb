//go:build e2e

package e2e

import (
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// resendSlot puts the approval slot back as the server first sent it, with
// the fingerprint given (empty keeps it), as the page stream does when the
// dialog's props change, and runs the same hook a swap runs.
const resendSlot = `([html, print]) => {
	const slot = document.getElementById('approval-slot');
	const t = document.createElement('template');
	t.innerHTML = html;
	const fresh = t.content.firstElementChild;
	if (print) fresh.querySelector('[data-testid="approval-dialog"]').setAttribute('data-fingerprint', print);
	slot.replaceWith(fresh);
	fresh.dispatchEvent(new CustomEvent('htmx:oobAfterSwap', {bubbles: true}));
}`

// TestApprovalDecideLater: U10. "Decide later" closes the dialog without
// an answer: the server stays blocked, focus goes back to the page (the
// server's chip), Tab is no longer trapped, and the same config sent again
// stays hidden in this page. A changed config asks again, Escape puts it
// off too, and a reload asks again.
func TestApprovalDecideLater(t *testing.T) {
	in, _ := startWithProject(t, servers{"mine": demoStdio("mine", nil)}, servers{"proj": demoStdio("proj", nil)})
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	waitAllChips(t, page, "mine", "connected")
	dialog := `[data-testid="approval-dialog"]`
	waitVisible(t, page, dialog, "approval dialog")
	waitTrue(t, page, `() => document.activeElement?.getAttribute('data-testid') === 'approval-reject'`, nil, "focus on Reject")
	var original string
	evalJSON(t, page, `() => JSON.stringify(document.getElementById('approval-slot').outerHTML)`, nil, &original)

	click(t, page, `[data-testid="approval-later"]`)
	waitHidden(t, page, dialog, "the dialog after Decide later")
	waitHidden(t, page, `[data-testid="approval-backdrop"]`, "the backdrop after Decide later")
	if f := focused(t, page); !f.InList || f.Server != "proj" {
		t.Errorf("focus after Decide later: got %+v, want the list chip of proj", f)
	}
	if got := attr(t, page, listChipSel("proj"), "data-state"); got != "disabled" {
		t.Errorf("proj after Decide later: got %q, want disabled (still pending)", got)
	}
	press(t, page, "Tab")
	var inDialog bool
	evalJSON(t, page, `() => JSON.stringify(!!document.activeElement?.closest('#approval-slot'))`, nil, &inDialog)
	if inDialog {
		t.Errorf("Tab went into the hidden dialog; want the page usable")
	}
	checkAxe(t, page, "dialog put off")

	// The stream sends the same dialog again: it stays put off.
	if _, err := page.Evaluate(resendSlot, []any{original, ""}); err != nil {
		t.Fatal(err)
	}
	waitHidden(t, page, dialog, "the same config sent again")

	// The config changed: the person is asked again, and Escape puts it
	// off as well.
	if _, err := page.Evaluate(resendSlot, []any{original, "changed"}); err != nil {
		t.Fatal(err)
	}
	waitVisible(t, page, dialog, "the dialog for a changed config")
	waitTrue(t, page, `() => document.querySelector('[data-testid="approval-dialog"]').contains(document.activeElement)`, nil,
		"focus moves into the dialog for a changed config")
	press(t, page, "Escape")
	waitHidden(t, page, dialog, "the dialog after Escape")

	if _, err := page.Reload(); err != nil {
		t.Fatal(err)
	}
	waitVisible(t, page, dialog, "the dialog after a reload")
	click(t, page, `[data-testid="approval-approve"]`)
	waitAllChips(t, page, "proj", "connected")
}
