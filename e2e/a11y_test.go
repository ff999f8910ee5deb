//go:build e2e

package e2e

import (
	"fmt"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// fourStates configures one server in each state: a connect that never
// gets an answer, a healthy demo server, a command that does not exist
// and a server disabled in the settings file.
func fourStates(t *testing.T) (*instance, map[string]string) {
	t.Helper()
	hang := newGate(t, "")
	in := startWith(t, servers{
		"s-connecting": {"url": hang.URL, "connectTimeoutSeconds": 600},
		"s-connected":  demoStdio("s-connected", nil),
		"s-error":      missingCommand(),
		"s-disabled":   demoStdio("s-disabled", map[string]any{"disabled": true}),
	})
	want := map[string]string{"s-connecting": "connecting", "s-connected": "connected", "s-error": "error", "s-disabled": "disabled"}
	for name, state := range want {
		in.waitState(t, name, state)
	}
	return in, want
}

// TestAccessibility runs axe-core with a server in each of the four
// states, on the page, with each tooltip open and with each drawer open,
// in light and dark, in every language.
func TestAccessibility(t *testing.T) {
	in, states := fourStates(t)
	order := []string{"s-connecting", "s-connected", "s-error", "s-disabled"}
	for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
		for _, lc := range languageCases {
			locale := lc.locale
			t.Run(fmt.Sprintf("%s/%s", *scheme, locale), func(t *testing.T) {
				page := openWith(t, in, playwright.BrowserNewContextOptions{ColorScheme: scheme, Locale: playwright.String(locale)})
				for _, name := range order {
					waitAllChips(t, page, name, states[name])
				}
				checkAxe(t, page, "page")
				for _, name := range order {
					btn := listChipSel(name) + " " + selChipButton
					if err := page.Locator(btn).Hover(); err != nil {
						t.Fatalf("hover %s: %v", btn, err)
					}
					waitVisible(t, page, listChipSel(name)+" "+selTooltip, "tooltip of "+name+" on hover")
					checkAxe(t, page, "tooltip of "+name+" ("+states[name]+") open")
					if err := page.Mouse().Move(0, 0); err != nil {
						t.Fatal(err)
					}
				}
				for _, name := range order {
					openDrawer(t, page, name)
					checkAxe(t, page, "drawer of "+name+" ("+states[name]+") open")
					press(t, page, "Escape")
					waitHidden(t, page, drawerSel(name), "Escape closes the drawer of "+name)
					// Focus is back on the chip button, which shows its tooltip.
					// Move the pointer off the chip it clicked, then dismiss the
					// tooltip with Escape, so it covers no other chip.
					if err := page.Mouse().Move(0, 0); err != nil {
						t.Fatal(err)
					}
					press(t, page, "Escape")
					waitHidden(t, page, listChipSel(name)+" "+selTooltip, "Escape dismisses the tooltip of "+name)
				}
			})
		}
	}
}

// TestAccessibilityNarrow runs axe-core on a phone-sized screen, where the
// tooltip docks to the bottom edge and the drawer becomes a sheet.
func TestAccessibilityNarrow(t *testing.T) {
	in, states := fourStates(t)
	page := openWith(t, in, playwright.BrowserNewContextOptions{
		Locale: playwright.String("en-US"), Viewport: &playwright.Size{Width: 375, Height: 740},
		HasTouch: playwright.Bool(true), IsMobile: playwright.Bool(true)})
	for name, state := range states {
		waitAllChips(t, page, name, state)
	}
	checkAxe(t, page, "narrow page")
	if err := page.Locator(listChipSel("s-error") + " " + selChipButton).Focus(); err != nil {
		t.Fatal(err)
	}
	checkAxe(t, page, "narrow page, s-error chip focused")
	openDrawer(t, page, "s-error")
	checkAxe(t, page, "narrow page, drawer of s-error open")
}

// TestReducedMotion: with reduced motion asked for, nothing animates while
// a server is connecting.
func TestReducedMotion(t *testing.T) {
	hang := newGate(t, "")
	in := startWith(t, servers{"slow": {"url": hang.URL, "connectTimeoutSeconds": 600}})
	running := `() => JSON.stringify(document.getAnimations().filter(a => a.playState === 'running')
		.map(a => (a.animationName || a.transitionProperty || 'animation') + ' on ' +
			(a.effect && a.effect.target ? (a.effect.target.getAttribute('data-testid') || a.effect.target.className) : '?')))`

	normal := open(t, in)
	waitAllChips(t, normal, "slow", "connecting")
	var anims []string
	evalJSON(t, normal, running, nil, &anims)
	t.Logf("running animations without reduced motion (for reference): %q", anims)

	page := openWith(t, in, playwright.BrowserNewContextOptions{
		Locale: playwright.String("en-US"), ReducedMotion: playwright.ReducedMotionReduce})
	waitAllChips(t, page, "slow", "connecting")
	anims = nil
	evalJSON(t, page, running, nil, &anims)
	if len(anims) != 0 {
		t.Errorf("running animations with reduced motion while connecting: got %q, want none", anims)
	}
}

// TestAxeFindsViolations guards the harness: axe-core, as injected and
// configured here, does report a real violation.
func TestAxeFindsViolations(t *testing.T) {
	in := startWith(t, servers{})
	page := open(t, in)
	if _, err := page.Evaluate(`() => { const i = document.createElement('img'); i.src = 'data:,'; document.body.append(i); }`); err != nil {
		t.Fatal(err)
	}
	for _, v := range axe(t, page) {
		if v.ID == "image-alt" {
			return
		}
	}
	t.Errorf("axe on a page with an <img> without alt: no image-alt violation, want one")
}
