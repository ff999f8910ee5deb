//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// Selectors, all from docs/dashboard-contract.md.
const (
	selHeader     = `[data-testid="header"]`
	selDrawer     = `[data-testid="drawer"]`
	selTooltip    = `[data-testid="tooltip"]`
	selChipButton = `[data-testid="chip-button"]`
)

// chipSel matches every chip of server (header, row and drawer).
func chipSel(server string) string {
	return fmt.Sprintf(`[data-testid="status-chip"][data-server=%q]`, server)
}

// listChipSel matches server's chip in the server list (the header holds
// a summary, not chips).
func listChipSel(server string) string { return `[data-testid="server-list"] ` + chipSel(server) }

// rowSel matches server's row in the server list.
func rowSel(server string) string {
	return fmt.Sprintf(`[data-testid="server-list"] [data-testid="server-row"][data-server=%q]`, server)
}

// drawerSel matches the open drawer of server.
func drawerSel(server string) string { return fmt.Sprintf(`%s[data-server=%q]`, selDrawer, server) }

// newPage opens a page in a fresh browser context whose waits default to
// waitLong.
func newPage(t *testing.T, opts playwright.BrowserNewContextOptions) playwright.Page {
	t.Helper()
	bc, err := browser.NewContext(opts)
	if err != nil {
		t.Fatalf("new browser context: %v", err)
	}
	t.Cleanup(func() { bc.Close() })
	bc.SetDefaultTimeout(float64(waitLong.Milliseconds()))
	page, err := bc.NewPage()
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	return page
}

// open loads the dashboard in a new English page.
func open(t *testing.T, in *instance) playwright.Page {
	t.Helper()
	return openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
}

func openWith(t *testing.T, in *instance, opts playwright.BrowserNewContextOptions) playwright.Page {
	t.Helper()
	page := newPage(t, opts)
	goTo(t, page, in.link())
	return page
}

func goTo(t *testing.T, page playwright.Page, url string) {
	t.Helper()
	resp, err := page.Goto(url)
	if err != nil {
		t.Fatalf("open dashboard: %v", err)
	}
	if resp.Status() != 200 {
		t.Fatalf("dashboard: got HTTP %d, want 200", resp.Status())
	}
}

// waitFor waits until selector matches an element (attached, not
// necessarily visible): playwright's own polling, bounded by waitLong.
func waitFor(t *testing.T, page playwright.Page, selector, what string) playwright.Locator {
	t.Helper()
	loc := page.Locator(selector).First()
	if err := loc.WaitFor(playwright.LocatorWaitForOptions{State: playwright.WaitForSelectorStateAttached}); err != nil {
		t.Fatalf("%s: %s never appeared: %v\n%s", what, selector, err, describeChips(page))
	}
	return loc
}

// waitVisible waits until selector matches a visible element.
func waitVisible(t *testing.T, page playwright.Page, selector, what string) playwright.Locator {
	t.Helper()
	loc := page.Locator(selector).First()
	if err := loc.WaitFor(playwright.LocatorWaitForOptions{State: playwright.WaitForSelectorStateVisible}); err != nil {
		t.Fatalf("%s: %s never became visible: %v", what, selector, err)
	}
	return loc
}

// waitGone waits until no element matches selector.
func waitGone(t *testing.T, page playwright.Page, selector, what string) {
	t.Helper()
	waitTrue(t, page, `sel => document.querySelectorAll(sel).length === 0`, selector, what+": "+selector+" still present")
}

// waitTrue waits until the page function fn(arg) returns true, checked on
// every animation frame.
func waitTrue(t *testing.T, page playwright.Page, fn string, arg any, what string) {
	t.Helper()
	if _, err := page.WaitForFunction(fn, arg); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, describeChips(page))
	}
}

// waitChip waits until server's list chip says state.
func waitChip(t *testing.T, page playwright.Page, server, state string) {
	t.Helper()
	waitFor(t, page, fmt.Sprintf(`%s[data-state=%q]`, listChipSel(server), state), server+" chip "+state)
}

// waitAllChips waits until every chip of server on the page says state.
func waitAllChips(t *testing.T, page playwright.Page, server, state string) {
	t.Helper()
	waitTrue(t, page, `([sel, state]) => {
		const chips = [...document.querySelectorAll(sel)];
		return chips.length > 0 && chips.every(c => c.dataset.state === state);
	}`, []any{chipSel(server), state}, "every "+server+" chip "+state)
}

// text is the squashed text content of the first match of selector,
// read at once (wait for the element first when it comes later). A
// missing element ends the test.
func text(t *testing.T, page playwright.Page, selector string) string {
	t.Helper()
	var got *string
	evalJSON(t, page, `sel => { const el = document.querySelector(sel); return JSON.stringify(el ? el.textContent : null); }`, selector, &got)
	if got == nil {
		t.Fatalf("no element matches %s\n%s", selector, describeChips(page))
	}
	return squash(*got)
}

// attr is attribute name of the first match of selector, read at once;
// "" when either is missing.
func attr(t *testing.T, page playwright.Page, selector, name string) string {
	t.Helper()
	var got string
	evalJSON(t, page, `([sel, name]) => { const el = document.querySelector(sel); return JSON.stringify(el && el.getAttribute(name) || ''); }`,
		[]any{selector, name}, &got)
	return got
}

// squash trims s and collapses its runs of white space.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// count is the number of elements matching selector right now.
func count(t *testing.T, page playwright.Page, selector string) int {
	t.Helper()
	n, err := page.Locator(selector).Count()
	if err != nil {
		t.Fatalf("count %s: %v", selector, err)
	}
	return n
}

// evalJSON evaluates fn, which must return a JSON string, into out.
func evalJSON(t *testing.T, page playwright.Page, fn string, arg any, out any) {
	t.Helper()
	raw, err := page.Evaluate(fn, arg)
	if err != nil {
		t.Fatalf("evaluate: %v", err)
	}
	s, ok := raw.(string)
	if !ok {
		t.Fatalf("evaluate returned %T, want a JSON string", raw)
	}
	if err := json.Unmarshal([]byte(s), out); err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
}

// describeChips lists every chip on the page, for failure messages.
func describeChips(page playwright.Page) string {
	raw, err := page.Evaluate(`() => JSON.stringify([...document.querySelectorAll('[data-testid="status-chip"]')]
		.map(c => c.dataset.server + '=' + c.dataset.state))`)
	if err != nil {
		return "chips: " + err.Error()
	}
	s, _ := raw.(string)
	return "chips on the page: " + s
}

// active describes the focused element: its data-testid and tag, the
// data-server of its nearest owner, and which region holds it.
type active struct {
	TestID   string `json:"testid"`
	Server   string `json:"server"`
	InDrawer bool   `json:"inDrawer"`
	InHeader bool   `json:"inHeader"`
	InList   bool   `json:"inList"`
	InDialog bool   `json:"inDialog"`
	Tag      string `json:"tag"`
}

// focused describes document.activeElement.
func focused(t *testing.T, page playwright.Page) active {
	t.Helper()
	var a active
	evalJSON(t, page, `() => {
		const el = document.activeElement || document.body;
		const owner = el.closest('[data-server]');
		return JSON.stringify({
			testid: el.getAttribute('data-testid') || '',
			server: owner ? owner.getAttribute('data-server') : '',
			inDrawer: !!el.closest('[data-testid="drawer"]'),
			inHeader: !!el.closest('[data-testid="header"]'),
			inList: !!el.closest('[data-testid="server-list"]'),
			inDialog: !!el.closest('[data-testid="confirm-dialog"]'),
			tag: el.tagName.toLowerCase(),
		});
	}`, nil, &a)
	return a
}

// openDrawer clicks server's list chip button and waits for its drawer.
func openDrawer(t *testing.T, page playwright.Page, server string) playwright.Locator {
	t.Helper()
	if err := page.Locator(listChipSel(server) + " " + selChipButton).Click(); err != nil {
		t.Fatalf("click %s chip button: %v", server, err)
	}
	loc := waitVisible(t, page, drawerSel(server), "open the drawer of "+server)
	var inert string
	evalJSON(t, page, `sel => { const d = document.querySelector(sel), i = d && d.closest('[inert]');
		return JSON.stringify(i ? i.tagName.toLowerCase() + (i.id ? '#' + i.id : '') : ''); }`, drawerSel(server), &inert)
	if inert != "" {
		t.Fatalf("open drawer of %s: it sits inside an inert element (%s), so it takes no focus and no clicks", server, inert)
	}
	waitTrue(t, page, `sel => document.querySelector(sel)?.contains(document.activeElement)`, drawerSel(server),
		"focus moves into the drawer of "+server)
	return loc
}

// click clicks the first visible match of selector.
func click(t *testing.T, page playwright.Page, selector string) {
	t.Helper()
	if err := page.Locator(selector).First().Click(); err != nil {
		t.Fatalf("click %s: %v", selector, err)
	}
}

// visible reports whether the first match of selector is visible now.
func visible(t *testing.T, page playwright.Page, selector string) bool {
	t.Helper()
	v, err := page.Locator(selector).First().IsVisible()
	if err != nil {
		t.Fatalf("is %s visible: %v", selector, err)
	}
	return v
}

// waitHidden waits until selector matches nothing visible (removed or
// hidden).
func waitHidden(t *testing.T, page playwright.Page, selector, what string) {
	t.Helper()
	if err := page.Locator(selector).First().WaitFor(playwright.LocatorWaitForOptions{State: playwright.WaitForSelectorStateHidden}); err != nil {
		t.Fatalf("%s: %s still visible: %v", what, selector, err)
	}
}
