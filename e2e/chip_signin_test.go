//go:build e2e

package e2e

import (
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// A server that waits for a sign-in has Sign in beside its chip, in the
// header and in the list: reached by Tab from the chip button, named for
// the server, on the chip's own line, axe-clean. Enter opens the sign-in
// in a new tab; once it is done the chip turns connected and the action
// goes, without a reload.
func TestSignInFromTheChip(t *testing.T) {
	in, as := startOAuth(t, oauthtest.Options{Iss: true, ScopesSupported: []string{"read"}})
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	waitChip(t, page, "linear", "sign_in")

	header := listChipSel("linear") + ` [data-testid="chip-signin"]`
	waitVisible(t, page, header, "Sign in beside the list's chip")
	if n := count(t, page, selHeader+` [data-testid="chip-signin"]`); n != 0 {
		t.Errorf("Sign in actions in the header: got %d, want none (chips live in the list)", n)
	}
	if got := attr(t, page, header, "aria-label"); got != "Sign in to linear (opens in a new tab)" {
		t.Errorf("accessible name %q", got)
	}
	if got := squash(text(t, page, header)); got != "Sign in" {
		t.Errorf("visible text %q, want Sign in", got)
	}
	if got := squash(text(t, page, listChipSel("linear")+` [data-testid="tooltip-auth-hint"]`)); !strings.Contains(got, "beside the chip") {
		t.Errorf("tooltip hint %q; want it to point to Sign in beside the chip", got)
	}

	// Compact: the action shares the chip's line, and the chip stays one
	// line high.
	var box struct {
		Chip, Button, Action float64
		SameLine             bool
	}
	evalJSON(t, page, `sel => {
		const chip = document.querySelector(sel), b = chip.querySelector('[data-testid="chip-button"]'),
			a = chip.querySelector('[data-testid="chip-signin"]');
		const cr = chip.getBoundingClientRect(), br = b.getBoundingClientRect(), ar = a.getBoundingClientRect();
		return JSON.stringify({Chip: cr.height, Button: br.height, Action: ar.height,
			SameLine: ar.top >= cr.top && ar.bottom <= cr.bottom && ar.left >= br.right - 1});
	}`, listChipSel("linear"), &box)
	if !box.SameLine || box.Chip > box.Button+4 || box.Action < 24 {
		t.Errorf("chip %+v; want the action on the chip's line after its button, the chip no taller than its button, a 24px target", box)
	}

	// Keyboard: Tab from the chip button reaches Sign in.
	if err := page.Locator(listChipSel("linear") + " " + selChipButton).Focus(); err != nil {
		t.Fatal(err)
	}
	tabTo(t, page, "Tab", 1, "Sign in after the chip button", func(a active) bool {
		return a.TestID == "chip-signin" && a.Server == "linear" && a.InList
	})
	checkAxe(t, page, "chip with Sign in beside it, focused")

	tab, err := page.Context().ExpectPage(func() error {
		press(t, page, "Enter")
		return nil
	})
	if err != nil {
		t.Fatalf("Sign in beside the chip opened no tab: %v", err)
	}
	waitVisible(t, tab, `[data-testid="oauth-page"][data-kind="signed_in"]`, "the callback page says signed in")
	waitAllChips(t, page, "linear", "connected")
	waitGone(t, page, `[data-testid="chip-signin"]`, "Sign in leaves the chips once signed in")
	if c := as.Counts(); c.Authorize != 1 {
		t.Errorf("authorization server saw %+v, want one authorize", c)
	}
}
