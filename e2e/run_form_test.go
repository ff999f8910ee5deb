//go:build e2e

package e2e

import (
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// Run form selectors, from docs/dashboard-contract.md.
const (
	selRunForm  = `[data-testid="run-form"]`
	selRunError = `[data-testid="run-field-error"]`
)

// runButton is the Run button of tool in server's open drawer.
func runButton(server, tool string) string {
	return drawerSel(server) + ` [data-testid="tool-run"][data-tool="` + tool + `"]`
}

func runField(name string) string {
	return selRunForm + ` [data-testid="run-field"][data-name="` + name + `"]`
}

// TestRunFormCallsTool opens the drawer, runs echo with a value typed in
// the form, and sees its card succeed in the feed; an empty required
// field is refused beside it first.
func TestRunFormCallsTool(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	in.waitState(t, "alpha", "connected")
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	waitChip(t, page, "alpha", "connected")
	openDrawer(t, page, "alpha")
	if err := page.Locator(runButton("alpha", "echo")).Click(); err != nil {
		t.Fatalf("click Run: %v", err)
	}
	waitVisible(t, page, selRunForm+`[role="dialog"]`, "the run form opens")
	waitTrue(t, page, `() => document.activeElement && document.activeElement.name === 'arg.message'`, nil, "focus on the first field")

	if err := page.Locator(selRunForm + ` [data-testid="run-submit"]`).Click(); err != nil {
		t.Fatal(err)
	}
	waitVisible(t, page, runField("message")+" "+selRunError, "the required field is refused beside it")
	if got := attr(t, page, runField("message")+" input", "aria-invalid"); got != "true" {
		t.Errorf("aria-invalid: got %q, want true", got)
	}
	waitTrue(t, page, `() => document.activeElement && document.activeElement.name === 'arg.message'`, nil, "focus on the refused field")

	if err := page.Locator(runField("message") + " input").Fill("hello from e2e"); err != nil {
		t.Fatal(err)
	}
	if err := page.Locator(selRunForm + ` [data-testid="run-submit"]`).Click(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, page, selRunForm, "the form closes once the call started")
	waitTrue(t, page, `() => document.activeElement && document.activeElement.getAttribute('data-tool') === 'echo'`, nil, "focus back on Run")
	press(t, page, "Escape")
	waitFor(t, page, `[data-testid="invocation-card"][data-status="success"]`, "a successful card in the feed")
}

// TestRunFormKeyboard walks the tabs and the form with the keyboard only:
// arrows switch tabs and carry the typed value into the raw JSON, Escape
// closes the form back to its Run button without closing the drawer.
func TestRunFormKeyboard(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	in.waitState(t, "alpha", "connected")
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	waitChip(t, page, "alpha", "connected")
	openDrawer(t, page, "alpha")
	if err := page.Locator(runButton("alpha", "echo")).Focus(); err != nil {
		t.Fatal(err)
	}
	press(t, page, "Enter")
	waitVisible(t, page, selRunForm, "Enter on Run opens the form")
	waitTrue(t, page, `() => document.activeElement && document.activeElement.name === 'arg.message'`, nil, "focus on the first field")
	if err := page.Keyboard().Type("typed"); err != nil {
		t.Fatal(err)
	}
	for range 8 {
		press(t, page, "Shift+Tab")
		if focused(t, page).TestID == "run-tab-form" {
			break
		}
	}
	if got := focused(t, page).TestID; got != "run-tab-form" {
		t.Fatalf("Shift+Tab reaches the form tab: focus on %q", got)
	}
	press(t, page, "ArrowRight")
	waitTrue(t, page, `() => document.activeElement.getAttribute('data-testid') === 'run-tab-raw' &&
		document.activeElement.getAttribute('aria-selected') === 'true'`, nil, "ArrowRight selects the raw tab")
	waitTrue(t, page, `() => JSON.parse(document.querySelector('[data-testid="run-raw"]').value).message === 'typed'`, nil,
		"the raw JSON carries the typed value")
	press(t, page, "ArrowLeft")
	waitTrue(t, page, `() => document.activeElement.getAttribute('data-testid') === 'run-tab-form'`, nil, "ArrowLeft back to the form tab")
	press(t, page, "Escape")
	waitGone(t, page, selRunForm, "Escape closes the form")
	waitTrue(t, page, `() => document.activeElement && document.activeElement.getAttribute('data-tool') === 'echo'`, nil, "focus back on Run")
	waitVisible(t, page, drawerSel("alpha"), "the drawer stays open")
}
