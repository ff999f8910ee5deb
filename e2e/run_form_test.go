//go:build e2e

package e2e

import (
	"strings"
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

// startedUnderForm waits for the card of the call the form started to
// arrive under the form, then closes the form with Escape, which moves
// the card to the drawer's recent calls.
func startedUnderForm(t *testing.T, page playwright.Page, what string) {
	t.Helper()
	waitFor(t, page, selRunForm+` [data-testid="run-card-slot"] [data-testid="invocation-card"]`, what+": the card under the form")
	press(t, page, "Escape")
	waitGone(t, page, selRunForm, what+": Escape closes the form")
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
	// The form stays, focus on Run tool to send again, and the call's
	// card arrives right under it (TestWorkbenchRunCardUnderForm).
	waitFor(t, page, selRunForm+` [data-testid="run-card-slot"] [data-testid="invocation-card"][data-status="success"]`,
		"a successful card under the form")
	waitTrue(t, page, `() => document.activeElement && document.activeElement.getAttribute('data-testid') === 'run-submit'`, nil, "focus on Run tool")
	press(t, page, "Escape")
	waitGone(t, page, selRunForm, "Escape closes the form")
	waitTrue(t, page, `() => document.activeElement && document.activeElement.getAttribute('data-tool') === 'echo'`, nil, "focus back on Run")
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

// TestRunFormDefaultsAndSendAnyway runs the demo's snapshot_settings,
// whose schema requires scale and gives it a default, as zod writes
// Playwright MCP's screenshot schema. The Raw JSON tab's {} is sent with
// the default filled in and the card says so; a zoom written as a string
// is refused beside the raw text, which stays as typed on its tab, and
// Send anyway sends it, the card noting the mismatch.
func TestRunFormDefaultsAndSendAnyway(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	in.waitState(t, "alpha", "connected")
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	waitChip(t, page, "alpha", "connected")
	openDrawer(t, page, "alpha")

	openRaw := func() {
		t.Helper()
		if err := page.Locator(runButton("alpha", "snapshot_settings")).Click(); err != nil {
			t.Fatalf("click Run: %v", err)
		}
		waitVisible(t, page, selRunForm, "the run form opens")
		if got := attr(t, page, runField("scale"), "data-required"); got != "false" {
			t.Errorf("scale has a default, so it is not required of the person: data-required %q", got)
		}
		if got := text(t, page, runField("scale")+` [data-testid="run-hint"]`); got != "Default: css" {
			t.Errorf("scale hint: got %q, want Default: css", got)
		}
		if err := page.Locator(selRunForm + ` [data-testid="run-tab-raw"]`).Click(); err != nil {
			t.Fatal(err)
		}
		waitVisible(t, page, selRunForm+` [data-testid="run-raw"]`, "the Raw JSON tab")
	}
	submit := func(button string) {
		t.Helper()
		if err := page.Locator(selRunForm + ` [data-testid="` + button + `"]`).Click(); err != nil {
			t.Fatal(err)
		}
	}

	openRaw()
	if err := page.Locator(selRunForm + ` [data-testid="run-raw"]`).Fill("{}"); err != nil {
		t.Fatal(err)
	}
	submit("run-submit")
	startedUnderForm(t, page, "{} starts the call")
	first := `[data-testid="drawer-invocations"] [data-testid="invocation-card"][data-status="success"]`
	waitFor(t, page, first+` [data-testid="invocation-default"]`, "the card marks the filled default")
	if got := text(t, page, first+` [data-testid="invocation-default"]`); got != "scale" {
		t.Errorf("default marked: got %q, want scale", got)
	}
	waitTrue(t, page, `(sel) => document.querySelector(sel).textContent.includes('scale css (sent by the caller)')`,
		first+` [data-testid="invocation-result"]`, "the server received scale")

	openRaw()
	typed := "{\n  \"zoom\": \"2\"\n}"
	if err := page.Locator(selRunForm + ` [data-testid="run-raw"]`).Fill(typed); err != nil {
		t.Fatal(err)
	}
	submit("run-submit")
	waitVisible(t, page, selRunForm+` [data-testid="run-raw-violation"]`, "the violation beside the raw text")
	if got := text(t, page, selRunForm+` [data-testid="run-raw-violation"]`); !strings.Contains(got, "/zoom") {
		t.Errorf("violation: got %q, want it at /zoom", got)
	}
	if got := attr(t, page, selRunForm+` [data-testid="run-tab-raw"]`, "aria-selected"); got != "true" {
		t.Errorf("the form jumped away from the Raw JSON tab: aria-selected %q", got)
	}
	waitTrue(t, page, `(want) => document.querySelector('[data-testid="run-raw"]').value === want`, typed, "the raw text as typed")
	waitTrue(t, page, `() => document.activeElement && document.activeElement.getAttribute('data-testid') === 'run-raw'`, nil,
		"focus on the refused raw text")
	checkAxe(t, page, "run form refused on the Raw JSON tab")
	submit("run-send-anyway")
	startedUnderForm(t, page, "Send anyway starts the call")
	warned := `[data-testid="drawer-invocations"] [data-testid="invocation-card"][data-status="success"] [data-testid="invocation-mismatch"][role="note"]`
	waitVisible(t, page, warned, "the card notes the mismatch")
	if got := text(t, page, warned); !strings.Contains(got, "/zoom") {
		t.Errorf("mismatch note: got %q", got)
	}
	checkAxe(t, page, "cards noting defaults and a mismatch")
}
