//go:build e2e

package e2e

import (
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestCallListCompactRowsOpenInPlace: the page lists calls as compact
// rows, the newest hundred first and older ones on demand; a row opens its
// card under it without moving the page, a failed call's row says why and
// its card opens with the error; a call that arrives while the reader is
// down the list moves nothing and is offered as "1 new call"; the filters
// go in the page's address.
func TestCallListCompactRowsOpenInPlace(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	in.waitState(t, "alpha", "connected")
	l := followInvocations(t, in)
	failed := callTool(t, in, "alpha", "fail_always", map[string]any{})
	var last invocation
	for range 104 {
		last = callTool(t, in, "alpha", "echo", map[string]any{"message": "row"})
	}
	l.waitFinal(t, failed.ID)
	l.waitFinal(t, last.ID)

	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US"),
		Viewport: &playwright.Size{Width: 1400, Height: 900}})
	rows := `#calls-list [data-testid="call-row"]`
	waitFor(t, page, callRow(last.ID), "the newest row")
	if n := count(t, page, rows); n != 100 {
		t.Errorf("rows on the page: got %d, want the newest 100", n)
	}
	var height float64
	evalJSON(t, page, `() => JSON.stringify(document.getElementById('calls-list').getBoundingClientRect().height)`, nil, &height)
	if height > 4000 || height < 100*30 {
		t.Errorf("the list of 100 rows is %.0f px tall, want about 36 px a row and at most 4000", height)
	}
	// A phone keeps one line per call and nothing scrolls sideways.
	if err := page.SetViewportSize(390, 844); err != nil {
		t.Fatal(err)
	}
	evalJSON(t, page, `() => JSON.stringify(document.getElementById('calls-list').getBoundingClientRect().height)`, nil, &height)
	if height > 4000 || height < 100*30 {
		t.Errorf("at 390 px the list of 100 rows is %.0f px tall, want about 36 px a row and at most 4000", height)
	}
	var sideways bool
	evalJSON(t, page, `() => JSON.stringify(document.documentElement.scrollWidth > document.documentElement.clientWidth)`, nil, &sideways)
	if sideways {
		t.Errorf("at 390 px the page scrolls sideways")
	}
	if err := page.SetViewportSize(1400, 900); err != nil {
		t.Fatal(err)
	}
	click(t, page, `[data-testid="calls-older"]`)
	waitTrue(t, page, `sel => document.querySelectorAll(sel).length === 105`, rows, "older rows loaded on demand")
	if n := count(t, page, `[data-testid="calls-older"]`); n != 0 {
		t.Errorf("an Older button is left with nothing older (%d)", n)
	}

	// The failed call, now loaded at the end: its row says why.
	bad := callRow(failed.ID)
	if got := text(t, page, bad+` [data-testid="call-row-error"]`); !strings.Contains(got, "fail_always failed on purpose") {
		t.Errorf("error row: got %q, want the tool's message", got)
	}
	// Opening it keeps the page where it is and shows the error first.
	if err := page.Locator(bad).ScrollIntoViewIfNeeded(); err != nil {
		t.Fatal(err)
	}
	var before, after float64
	evalJSON(t, page, `() => JSON.stringify(window.scrollY)`, nil, &before)
	if err := page.Locator(bad + ` [data-testid="call-row-toggle"]`).Focus(); err != nil {
		t.Fatal(err)
	}
	press(t, page, "Enter")
	card := `#callcard-` + failed.ID + ` [data-testid="call-card"]`
	waitVisible(t, page, card+` > [data-testid="call-card-error"]:first-child`, "the error first in the opened card")
	if got := attr(t, page, bad+` [data-testid="call-row-toggle"]`, "aria-expanded"); got != "true" {
		t.Errorf("aria-expanded after Enter: got %q", got)
	}
	evalJSON(t, page, `() => JSON.stringify(window.scrollY)`, nil, &after)
	if before != after {
		t.Errorf("opening a card scrolled the page from %.0f to %.0f", before, after)
	}
	checkAxe(t, page, "call list with an error card open")

	// Down the list, a new call moves nothing and is offered.
	var id string
	evalJSON(t, page, `() => { const r = document.querySelectorAll('#calls-list [data-testid="call-row"]')[60]; r.scrollIntoView({block: 'center'}); return JSON.stringify(r.dataset.invocation); }`, nil, &id)
	mid := callRow(id)
	var top0, top1 float64
	evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).getBoundingClientRect().top)`, mid, &top0)
	fresh := callTool(t, in, "alpha", "echo", map[string]any{"message": "new"})
	waitFor(t, page, callRow(fresh.ID), "the new call's row")
	waitVisible(t, page, `[data-testid="calls-new"]`, "the new-calls button")
	if got := text(t, page, `[data-testid="calls-new"]`); got != "1 new call" {
		t.Errorf("new-calls button: got %q, want 1 new call", got)
	}
	evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).getBoundingClientRect().top)`, mid, &top1)
	if d := top1 - top0; d > 1 || d < -1 {
		t.Errorf("the row being read moved %.0f px when a call arrived", d)
	}
	click(t, page, `[data-testid="calls-new"]`)
	waitTrue(t, page, `() => document.querySelector('[data-testid="calls-new"]').hidden`, nil, "the button goes once the new calls are shown")

	// Filters go in the page's address.
	if _, err := page.Locator(`[data-testid="calls-filter-status"]`).SelectOption(playwright.SelectOptionValues{Values: &[]string{"error"}}); err != nil {
		t.Fatal(err)
	}
	click(t, page, `[data-testid="calls-filter-apply"]`)
	waitTrue(t, page, `() => location.search.includes('status=error')`, nil, "the filter in the address")
	waitFor(t, page, bad, "the failed call in the filtered list")
	if n := count(t, page, rows+`:not([data-status="error"])`); n != 0 {
		t.Errorf("the list filtered to errors shows %d other rows", n)
	}

	// At 390 px the rows wrap into lines; nothing scrolls sideways.
	phone := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US"),
		Viewport: &playwright.Size{Width: 390, Height: 844}})
	waitFor(t, phone, callRow(fresh.ID), "the newest row on a phone")
	goTo(t, phone, in.URL+"/?status=error")
	click(t, phone, callRow(failed.ID)+` [data-testid="call-row-toggle"]`)
	waitVisible(t, phone, `#callcard-`+failed.ID+` [data-testid="call-card-error"]`, "the error card on a phone")
	var wide bool
	evalJSON(t, phone, `() => JSON.stringify(document.documentElement.scrollWidth > window.innerWidth)`, nil, &wide)
	if wide {
		t.Error("the call list scrolls sideways at 390 px")
	}
}
