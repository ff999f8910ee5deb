//go:build e2e

package e2e

import (
	"fmt"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// presets are the style presets of the header's select.
var presets = []string{"material3", "material2", "terminal_classic", "brutalist", "cyberpunk_neon", "glassmorphism", "minimalist_mono"}

// TestPresetsAccessible runs axe on every preset in light and dark, with a
// connected and an error server, on the page, with a drawer open and with
// the run form open.
func TestPresetsAccessible(t *testing.T) {
	in := startWith(t, servers{"s-connected": demoStdio("s-connected", nil), "s-error": missingCommand()})
	in.waitState(t, "s-connected", "connected")
	in.waitState(t, "s-error", "error")
	// Cards of every final status and the common content types, so each
	// preset is checked on them too.
	log := followInvocations(t, in)
	var ids []string
	for _, c := range []struct {
		tool string
		args any
	}{{"markdown_report", map[string]any{}}, {"tiny_image", map[string]any{}}, {"structured_weather", map[string]any{}},
		{"fail_always", map[string]any{}}, {"resource_links", map[string]any{}}} {
		ids = append(ids, callTool(t, in, "s-connected", c.tool, c.args).ID)
	}
	slow := callTool(t, in, "s-connected", "long_task", map[string]any{"steps": 100, "stepMillis": 200})
	log.waitStatus(t, slow.ID, "running")
	if code, body := apiPost(t, in, "/api/v1/invocations/"+slow.ID+"/cancel"); code != 200 {
		t.Fatalf("cancel: %d %s", code, body)
	}
	for _, id := range append(ids, slow.ID) {
		log.waitFinal(t, id)
	}
	for _, preset := range presets {
		for _, theme := range []string{"light", "dark"} {
			t.Run(fmt.Sprintf("%s/%s", preset, theme), func(t *testing.T) {
				page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
				setPreference(t, page, "theme", theme)
				setPreference(t, page, "preset", preset)
				waitFor(t, page, fmt.Sprintf(`html[data-preset=%q][data-theme=%q]`, preset, theme), "preset applied")
				waitAllChips(t, page, "s-connected", "connected")
				waitAllChips(t, page, "s-error", "error")
				openRowCard(t, page, slow.ID, "cancelled")
				checkAxe(t, page, "page with cards")
				openDrawer(t, page, "s-connected")
				checkAxe(t, page, "drawer open")
				if err := page.Locator(runButton("s-connected", "echo")).Click(); err != nil {
					t.Fatal(err)
				}
				waitVisible(t, page, selRunForm, "run form")
				checkAxe(t, page, "run form open")
				press(t, page, "Escape")
				waitGone(t, page, selRunForm, "Escape closes the run form")
				press(t, page, "Escape")
				waitHidden(t, page, drawerSel("s-connected"), "Escape closes the drawer")
				// Focus is back on the chip, whose tooltip would cover the
				// next one: move the pointer away and dismiss it.
				if err := page.Mouse().Move(0, 0); err != nil {
					t.Fatal(err)
				}
				press(t, page, "Escape")
				waitHidden(t, page, listChipSel("s-connected")+" "+selTooltip, "Escape dismisses the tooltip")
				openDrawer(t, page, "s-error")
				checkAxe(t, page, "error drawer open")
			})
		}
	}
}

// setPreference posts one preference as the header's form does, and
// waits for the page to reload with it.
func setPreference(t *testing.T, page playwright.Page, key, value string) {
	t.Helper()
	sel := map[string]string{"theme": `[data-testid="theme-toggle"]`, "preset": `[data-testid="preset-select"]`}[key]
	if v, _ := page.Locator(sel).InputValue(); v == value {
		return
	}
	choose(t, page, selHeader+" "+sel, value)
	waitFor(t, page, fmt.Sprintf(`html[data-%s=%q]`, key, value), key+" saved and page reloaded")
}

// TestPresetPersists: the preset survives a reload and a new browser, and
// terminal_classic brackets tool names.
func TestPresetPersists(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	in.waitState(t, "alpha", "connected")
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	if got := attr(t, page, "html", "data-preset"); got != "material3" {
		t.Errorf("initial preset: got %q, want material3", got)
	}
	setPreference(t, page, "preset", "terminal_classic")
	if _, err := page.Reload(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, `html[data-preset="terminal_classic"]`, "preset after a reload")
	other := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	if got := attr(t, other, "html", "data-preset"); got != "terminal_classic" {
		t.Errorf("preset in a new browser context: got %q, want terminal_classic", got)
	}
	openDrawer(t, other, "alpha")
	var before string
	evalJSON(t, other, `() => JSON.stringify(getComputedStyle(document.querySelector('[data-testid="tool-item"] .cap-name'), '::before').content)`, nil, &before)
	if before != `"[" / ""` && before != `"["` {
		t.Errorf("tool name ::before: got %s, want a bracket", before)
	}
}
