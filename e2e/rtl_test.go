//go:build e2e

package e2e

import (
	"math"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestRTL: Arabic reads right to left, so the page says dir="rtl" and the
// layout mirrors: the drawer opens from the left edge (from the right in
// English), while the server's stderr, its command, the run form's raw
// JSON and a call's arguments stay left to right inside it. axe finds
// nothing in the mirrored drawer.
func TestRTL(t *testing.T) {
	const name = "alpha"
	in := startWith(t, servers{name: demoStdio(name, nil)})
	in.waitState(t, name, "connected")

	for _, tt := range []struct{ locale, lang, dir, edge string }{
		{"ar", "ar", "rtl", "left"},
		{"en-US", "en", "ltr", "right"},
	} {
		t.Run(tt.locale, func(t *testing.T) {
			page := openWith(t, in, playwright.BrowserNewContextOptions{
				Locale: playwright.String(tt.locale), Viewport: &playwright.Size{Width: 1280, Height: 800}})
			waitChip(t, page, name, "connected")
			const width = 1280.0
			if got := attr(t, page, "html", "lang"); got != tt.lang {
				t.Errorf("html lang: got %q, want %q", got, tt.lang)
			}
			if got := attr(t, page, "html", "dir"); got != tt.dir {
				t.Errorf("html dir: got %q, want %q", got, tt.dir)
			}

			// The chip's tooltip lines up with the chip's start side (its
			// right in Arabic), and the settings popover with its button's
			// end side (its left in Arabic).
			chip := listChipSel(name)
			if err := page.Locator(chip + " " + selChipButton).Hover(); err != nil {
				t.Fatal(err)
			}
			waitVisible(t, page, chip+" "+selTooltip, "the chip's tooltip on hover")
			cb, tb := box(t, page, chip), box(t, page, chip+" "+selTooltip)
			off := tb.X - cb.X // English: left sides meet
			if tt.dir == "rtl" {
				off = cb.X + cb.Width - (tb.X + tb.Width) // Arabic: right sides meet
			}
			if math.Abs(off) > 1 {
				t.Errorf("tooltip %+v is %.1f px off the chip's start side %+v", tb, off, cb)
			}
			if err := page.Mouse().Move(640, 700); err != nil {
				t.Fatal(err)
			}
			click(t, page, `[data-testid="settings-open"]`)
			waitVisible(t, page, `[data-testid="settings-panel"] [data-testid="theme-toggle"]`, "the settings open")
			bb, pb := box(t, page, `[data-testid="settings-open"]`), box(t, page, `[data-testid="settings-panel"]`)
			off = bb.X + bb.Width - (pb.X + pb.Width) // English: right sides meet
			if tt.dir == "rtl" {
				off = pb.X - bb.X // Arabic: left sides meet
			}
			if math.Abs(off) > 1 || pb.X < 0 || pb.X+pb.Width > width {
				t.Errorf("settings popover %+v: want it inside the page, lined up with its button's end side %+v", pb, bb)
			}
			press(t, page, "Escape")
			waitHidden(t, page, `[data-testid="settings-panel"]`, "Escape closes the settings")

			drawer := openDrawer(t, page, name)
			settle(t, page)
			db, err := drawer.BoundingBox()
			if err != nil || db == nil {
				t.Fatalf("drawer box: %v", err)
			}
			if tt.edge == "left" && math.Abs(db.X) > 1 {
				t.Errorf("drawer: x=%.1f, want it against the left edge (0)", db.X)
			}
			if tt.edge == "right" && math.Abs(db.X+db.Width-width) > 1 {
				t.Errorf("drawer: right side at %.1f, want it against the right edge (%.0f)", db.X+db.Width, width)
			}
			if db.Width >= width-1 {
				t.Errorf("drawer: width %.1f fills the page, so its side says nothing", db.Width)
			}

			if got := direction(t, page, drawerSel(name)+` [data-testid="stderr"]`); got != "ltr" {
				t.Errorf("stderr <pre>: direction %q, want ltr", got)
			}
			if got := direction(t, page, drawerSel(name)+` [data-testid="drawer-target"]`); got != "ltr" {
				t.Errorf("target <code>: direction %q, want ltr", got)
			}
			if err := page.Locator(runButton(name, "echo")).Click(); err != nil {
				t.Fatalf("click Run: %v", err)
			}
			waitVisible(t, page, selRunForm+`[role="dialog"]`, "the run form opens")
			if got := direction(t, page, selRunForm+` [data-testid="run-raw"]`); got != "ltr" {
				t.Errorf("run form's raw JSON: direction %q, want ltr", got)
			}
			if got := direction(t, page, selRunForm); got != tt.dir {
				t.Errorf("run form: direction %q, want the page's %q", got, tt.dir)
			}
			// A call's arguments are JSON: with an Arabic value inside, its
			// braces and quotes still read left to right.
			if err := page.Locator(runField("message") + " input").Fill("مرحبا"); err != nil {
				t.Fatal(err)
			}
			if err := page.Locator(selRunForm + ` [data-testid="run-submit"]`).Click(); err != nil {
				t.Fatal(err)
			}
			card := selRunForm + ` [data-testid="run-card-slot"] [data-testid="invocation-card"]`
			waitFor(t, page, card+`[data-status="success"]`, "the call's card under the form")
			if got := direction(t, page, card+` [data-testid="invocation-args-json"]`); got != "ltr" {
				t.Errorf("the card's arguments JSON: direction %q, want ltr", got)
			}
			settle(t, page)
			checkAxe(t, page, tt.locale+" drawer with the run form and a card")
		})
	}
}

// box is the bounding box of the first element selector matches.
func box(t *testing.T, page playwright.Page, selector string) *playwright.Rect {
	t.Helper()
	b, err := page.Locator(selector).First().BoundingBox()
	if err != nil || b == nil {
		t.Fatalf("box of %s: %v", selector, err)
	}
	return b
}

// direction is the computed CSS direction of the first element selector
// matches.
func direction(t *testing.T, page playwright.Page, selector string) string {
	t.Helper()
	waitFor(t, page, selector, "find "+selector)
	var dir string
	evalJSON(t, page, `sel => JSON.stringify(getComputedStyle(document.querySelector(sel)).direction)`, selector, &dir)
	return dir
}
