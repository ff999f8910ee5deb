//go:build e2e

package e2e

import (
	"regexp"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// viewport opens the dashboard at width×height, in English.
func viewport(t *testing.T, in *instance, width, height int) playwright.Page {
	t.Helper()
	return openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US"),
		Viewport: &playwright.Size{Width: width, Height: height}})
}

// drawerLayout is how the open drawer sits on the page.
type drawerLayout struct {
	Modal        string  `json:"modal"`
	Backdrop     bool    `json:"backdrop"`
	Inert        int     `json:"inert"`
	Left         float64 `json:"left"`
	Top          float64 `json:"top"`
	Width        float64 `json:"width"`
	Height       float64 `json:"height"`
	MainRight    float64 `json:"mainRight"`
	HeaderRight  float64 `json:"headerRight"`
	ScrollWidth  float64 `json:"scrollWidth"`
	ClientWidth  float64 `json:"clientWidth"`
	ViewportW    float64 `json:"viewportW"`
	ViewportH    float64 `json:"viewportH"`
	PageScrolls  bool    `json:"pageScrolls"`
	FocusOutside bool    `json:"focusOutside"`
}

func layoutOf(t *testing.T, page playwright.Page, server string) drawerLayout {
	t.Helper()
	// The drawer slides in; measure where it comes to rest.
	waitTrue(t, page, `sel => { const d = document.querySelector(sel); return !!d && d.getAnimations().length === 0; }`,
		drawerSel(server), "the drawer's slide-in to end")
	var l drawerLayout
	evalJSON(t, page, `sel => { const d = document.querySelector(sel), r = d.getBoundingClientRect();
		const b = document.querySelector('.drawer-backdrop'), m = document.getElementById('main').getBoundingClientRect();
		const h = document.querySelector('[data-testid="header"]').getBoundingClientRect();
		return JSON.stringify({modal: d.getAttribute('aria-modal'), backdrop: !!b && b.getClientRects().length > 0 &&
			getComputedStyle(b).display !== 'none', inert: document.querySelectorAll('[inert]').length,
			left: r.left, top: r.top, width: r.width, height: r.height, mainRight: m.right, headerRight: h.right,
			scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth,
			viewportW: innerWidth, viewportH: innerHeight,
			pageScrolls: getComputedStyle(document.documentElement).overflow !== 'hidden'}); }`, drawerSel(server), &l)
	return l
}

// TestWorkbenchDrawerDocking: from 1200 px up the drawer is a column
// beside the page (not modal, no scrim, nothing inert, the page narrowed
// so nothing is behind it, Tab free to leave it); below that it is a
// modal dialog over a scrim; at 390 px a full-screen sheet. No width
// scrolls sideways.
func TestWorkbenchDrawerDocking(t *testing.T) {
	in := demoOnly(t, "alpha")

	t.Run("docked-1400", func(t *testing.T) {
		page := viewport(t, in, 1400, 900)
		waitChip(t, page, "alpha", "connected")
		openDrawer(t, page, "alpha")
		l := layoutOf(t, page, "alpha")
		if l.Modal != "false" || l.Backdrop || l.Inert != 0 || !l.PageScrolls {
			t.Errorf("docked drawer: got aria-modal %q, backdrop %v, %d inert elements, page scrolls %v; want a non-modal column",
				l.Modal, l.Backdrop, l.Inert, l.PageScrolls)
		}
		if l.Width < 500 || l.Width > 540 || l.Left+l.Width != l.ViewportW {
			t.Errorf("docked drawer: got x=%v width %v in %v, want about 520 px on the right", l.Left, l.Width, l.ViewportW)
		}
		if l.MainRight > l.Left+0.5 || l.HeaderRight > l.Left+0.5 {
			t.Errorf("page behind the drawer: main ends at %v, header at %v, drawer starts at %v", l.MainRight, l.HeaderRight, l.Left)
		}
		if l.ScrollWidth > l.ClientWidth {
			t.Errorf("horizontal scroll: %v > %v", l.ScrollWidth, l.ClientWidth)
		}
		// Tab is not trapped: walking forward leaves the drawer.
		left := false
		for range 200 {
			press(t, page, "Tab")
			if !focused(t, page).InDrawer {
				left = true
				break
			}
		}
		if !left {
			t.Errorf("Tab never left the docked drawer")
		}
		// The page stays usable: a click on another part of it lands.
		click(t, page, listChipSel("alpha")+" "+selChipButton)
		waitVisible(t, page, drawerSel("alpha"), "the drawer stays open or reopens")
		waitTrue(t, page, `sel => document.querySelector(sel)?.contains(document.activeElement)`, drawerSel("alpha"), "focus in the drawer")
		// The pointer still rests on the chip, whose tooltip Escape would
		// close first: move it away.
		if err := page.Mouse().Move(700, 880); err != nil {
			t.Fatal(err)
		}
		if err := page.Locator(drawerSel("alpha") + ` [data-testid="drawer-close"]`).Focus(); err != nil {
			t.Fatal(err)
		}
		press(t, page, "Escape")
		waitGone(t, page, drawerSel("alpha"), "Escape inside the drawer closes it")
		waitTrue(t, page, `() => !document.documentElement.classList.contains('drawer-docked')`, nil, "the page takes its width back")
	})

	t.Run("modal-1000", func(t *testing.T) {
		page := viewport(t, in, 1000, 800)
		waitChip(t, page, "alpha", "connected")
		openDrawer(t, page, "alpha")
		l := layoutOf(t, page, "alpha")
		if l.Modal != "true" || !l.Backdrop || l.Inert == 0 {
			t.Errorf("drawer below 1200 px: got aria-modal %q, backdrop %v, %d inert; want a modal dialog", l.Modal, l.Backdrop, l.Inert)
		}
		for range 60 {
			press(t, page, "Tab")
			if a := focused(t, page); !a.InDrawer {
				t.Fatalf("modal drawer: focus left it to %+v", a)
			}
		}
	})

	t.Run("sheet-390", func(t *testing.T) {
		page := viewport(t, in, 390, 844)
		waitChip(t, page, "alpha", "connected")
		openDrawer(t, page, "alpha")
		l := layoutOf(t, page, "alpha")
		if l.Left != 0 || l.Top != 0 || l.Width != l.ViewportW || l.Height != l.ViewportH {
			t.Errorf("drawer at 390 px: got %vx%v at (%v,%v), want the whole %vx%v viewport", l.Width, l.Height, l.Left, l.Top, l.ViewportW, l.ViewportH)
		}
		if l.Modal != "true" {
			t.Errorf("sheet at 390 px: aria-modal %q, want true", l.Modal)
		}
		if l.ScrollWidth > l.ClientWidth {
			t.Errorf("horizontal scroll at 390 px: %v > %v", l.ScrollWidth, l.ClientWidth)
		}
		var overflow int
		evalJSON(t, page, `sel => JSON.stringify([...document.querySelectorAll(sel + ' [data-testid="tool-item"]')]
			.filter(r => r.scrollWidth > r.clientWidth + 1).length)`, drawerSel("alpha"), &overflow)
		if overflow != 0 {
			t.Errorf("%d tool rows overflow sideways at 390 px", overflow)
		}
	})
}

// progressText is the card's (and the tool row's) progress numbers:
// "2 / 5 · 40 % · 4.1 s".
var progressText = regexp.MustCompile(`^\d+ / \d+ · \d+ % · \d+\.\d s$`)

// TestWorkbenchRunCardUnderForm runs a tool from the docked drawer: the
// search narrows the list to it, its rows are two fixed lines with risk
// and Run in one column, and after Run the form stays with the call's
// live card right under it, whose header is one row with the start time,
// Re-run and Edit and re-run; Edit and re-run reopens the form filled.
func TestWorkbenchRunCardUnderForm(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := viewport(t, in, 1400, 900)
	waitChip(t, page, "alpha", "connected")
	openDrawer(t, page, "alpha")
	d := drawerSel("alpha")

	var rows struct {
		Heights []float64 `json:"heights"`
		RunX    []float64 `json:"runX"`
		RiskX   []float64 `json:"riskX"`
	}
	evalJSON(t, page, `sel => { const rs = [...document.querySelectorAll(sel + ' [data-testid="tool-item"]')];
		const x = (r, id) => r.querySelector('[data-testid="' + id + '"]').getBoundingClientRect().right;
		return JSON.stringify({heights: rs.map(r => r.getBoundingClientRect().height),
			runX: rs.map(r => x(r, 'tool-run')), riskX: rs.map(r => x(r, 'tool-risk'))}); }`, d, &rows)
	for i, h := range rows.Heights {
		if h > 72 || rows.RunX[i] != rows.RunX[0] {
			t.Errorf("tool row %d: height %v, Run's right edge %v (first row %v); want ≤ 72 px and one column", i, h, rows.RunX[i], rows.RunX[0])
		}
	}

	if err := page.Locator(d + ` [data-testid="tool-search"]`).Fill("ECHO"); err != nil {
		t.Fatal(err)
	}
	waitTrue(t, page, `sel => [...document.querySelectorAll(sel + ' [data-testid="tool-item"]')].filter(r => !r.hidden)
		.map(r => r.dataset.tool).join() === 'echo'`, d, "the search leaves echo alone")
	if err := page.Locator(d + ` [data-testid="tool-search"]`).Fill("no such tool at all"); err != nil {
		t.Fatal(err)
	}
	waitVisible(t, page, d+` [data-testid="tool-search-none"]`, "the search says nothing matches")
	if err := page.Locator(d + ` [data-testid="tool-search"]`).Fill(""); err != nil {
		t.Fatal(err)
	}

	var contrast float64
	click(t, page, runButton("alpha", "echo"))
	waitVisible(t, page, selRunForm, "the run form opens")
	evalJSON(t, page, `() => { const b = document.querySelector('[data-testid="run-submit"]'), s = getComputedStyle(b);
		const lum = c => { const v = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(n => { n /= 255; return n <= 0.03928 ? n / 12.92 : Math.pow((n + 0.055) / 1.055, 2.4); });
			return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
		const a = lum(s.color), b2 = lum(s.backgroundColor);
		return JSON.stringify((Math.max(a, b2) + 0.05) / (Math.min(a, b2) + 0.05)); }`, nil, &contrast)
	if contrast < 7 {
		t.Errorf("Run tool: contrast %.2f, want a filled button at 7:1 or more", contrast)
	}
	if err := page.Locator(runField("message") + " input").Fill("under the form"); err != nil {
		t.Fatal(err)
	}
	click(t, page, selRunForm+` [data-testid="run-submit"]`)
	card := selRunForm + ` [data-testid="run-card-slot"] [data-testid="invocation-card"][data-status="success"]`
	waitVisible(t, page, card, "the call's card right under the form")
	var geo struct {
		FormBottom, CardTop, HeadHeight float64
		Started                         string
	}
	evalJSON(t, page, `sel => { const f = document.querySelector('[data-testid="run-form"] form').getBoundingClientRect();
		const c = document.querySelector(sel), h = c.querySelector('[data-testid="invocation-head"]').getBoundingClientRect();
		return JSON.stringify({FormBottom: f.bottom, CardTop: c.getBoundingClientRect().top, HeadHeight: h.height,
			Started: c.querySelector('[data-testid="invocation-started"]').textContent}); }`, card, &geo)
	if geo.CardTop < geo.FormBottom || geo.CardTop-geo.FormBottom > 80 {
		t.Errorf("card at y=%v, form ends at y=%v; want the card right under the form", geo.CardTop, geo.FormBottom)
	}
	if geo.HeadHeight > 48 {
		t.Errorf("card header: %v px tall, want one row", geo.HeadHeight)
	}
	if !regexp.MustCompile(`^\d\d:\d\d:\d\d$`).MatchString(geo.Started) {
		t.Errorf("start time: got %q, want HH:MM:SS", geo.Started)
	}
	if v, err := page.Locator(runField("message") + " input").InputValue(); err != nil || v != "under the form" {
		t.Errorf("form after Run: message %q (%v), want it kept as sent", v, err)
	}
	waitVisible(t, page, card+` [data-testid="invocation-retry"]`, "Re-run on the finished card")

	click(t, page, card+` [data-testid="invocation-edit-rerun"]`)
	waitTrue(t, page, `() => { const i = document.querySelector('[data-testid="run-form"] [data-name="message"] input');
		return i && i.value === 'under the form' && !document.querySelector('[data-testid="run-card-slot"]'); }`, nil,
		"Edit and re-run opens a fresh form filled with the call's arguments")
	waitVisible(t, page, d+` [data-testid="drawer-invocations"] [data-testid="invocation-card"][data-status="success"]`,
		"the earlier card moved to the recent calls")
	checkAxe(t, page, "the docked drawer with a run form")
}

// TestWorkbenchProgressOnToolRow runs long_task: the card under the form
// counts "n / 50 · p % · s.s s"; with the form closed the tool's row shows
// the same numbers and Cancel in place of Run, and that Cancel stops it.
func TestWorkbenchProgressOnToolRow(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := viewport(t, in, 1400, 900)
	waitChip(t, page, "alpha", "connected")
	openDrawer(t, page, "alpha")
	d := drawerSel("alpha")
	click(t, page, runButton("alpha", "long_task"))
	waitVisible(t, page, selRunForm, "the run form opens")
	if err := page.Locator(runField("steps") + " input").Fill("50"); err != nil {
		t.Fatal(err)
	}
	if err := page.Locator(runField("stepMillis") + " input").Fill("400"); err != nil {
		t.Fatal(err)
	}
	click(t, page, selRunForm+` [data-testid="run-submit"]`)
	text := selRunForm + ` [data-testid="run-card-slot"] [data-testid="invocation-progress-text"]`
	waitTrue(t, page, `sel => { const e = document.querySelector(sel); return !!e && /^\d+ \/ 50 · \d+ % · \d+\.\d s$/.test(e.textContent); }`,
		text, "the card counts its progress in numbers")
	press(t, page, "Escape")
	waitGone(t, page, selRunForm, "Escape closes the form")

	row := d + ` [data-testid="tool-item"][data-tool="long_task"]`
	waitVisible(t, page, row+` [data-testid="tool-cancel"]`, "Cancel in place of Run on the row")
	if visible(t, page, row+` [data-testid="tool-run"]`) {
		t.Errorf("Run still shown on a running tool's row")
	}
	got, err := page.Locator(row + ` [data-testid="tool-progress"]`).TextContent()
	if err != nil {
		t.Fatal(err)
	}
	if !progressText.MatchString(got) {
		t.Errorf("row progress: got %q, want n / 50 · p %% · s.s s", got)
	}
	click(t, page, row+` [data-testid="tool-cancel"]`)
	waitVisible(t, page, row+` [data-testid="tool-run"]`, "Run is back once the call stopped")
	waitFor(t, page, d+` [data-testid="invocation-card"][data-tool="long_task"][data-status="cancelled"]`, "the call was cancelled")
}
