//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	playwright "github.com/mxschmitt/playwright-go"
)

// scaleViewport is one screen size the scale tests hold the page to.
type scaleViewport struct {
	name          string
	width, height int
}

var (
	scaleDesktop = scaleViewport{"1400x900", 1400, 900}
	scaleMobile  = scaleViewport{"390x844", 390, 844}
)

// The numbers issue #13 holds the page to with 50 servers and 1,000 calls.
const (
	maxHeaderHeight = 72   // px, at every width
	maxListHeight   = 4000 // px, the call list on the page
	maxRowsOnPage   = 100  // the newest calls; older ones on demand
)

// TestScale starts the 50-server, 1,000-call fixture once and checks, in
// light and dark, at 1400×900 and 390×844: the header's height, no
// horizontal scroll, the call list's height, error rows, a card opening
// in place, heading sizes in a result, the drawer's history pictures and
// the calls chart's filtering links; then, on one page at 1400×900 with
// the drawer docked, a call run from it and cards open in the list, axe
// in every preset, light and dark. The phone views are axe'd in the
// default preset. SWITCHBOARD_SCREENSHOTS=docs/screenshots also saves the
// views as PNGs.
//
// Cost: each page load and each axe run over a page this size takes
// seconds, so every view is loaded once and axe runs once per state; the
// 1400 px views' axe is the presets' run over the same markup with more
// open (material3 is a preset).
func TestScale(t *testing.T) {
	in := startScale(t)
	for _, vp := range []scaleViewport{scaleDesktop, scaleMobile} {
		for _, theme := range []string{"light", "dark"} {
			in.setPrefs(t, theme, "material3")
			t.Run(theme+"/"+vp.name, func(t *testing.T) { scaleViews(t, in, theme, vp) })
		}
	}
	in.setPrefs(t, "light", "material3")
	page := in.open(t, scaleDesktop.width, scaleDesktop.height, "", "light", "material3")
	t.Run("docked drawer card under the form", func(t *testing.T) { scaleDockedRun(t, page) })
	t.Run("presets", func(t *testing.T) { scalePresets(t, page) })
}

// scaleViews runs every check of one theme and viewport on one page, each
// as its own subtest so the report names exactly what holds and what not.
func scaleViews(t *testing.T, in *scaleInstance, theme string, vp scaleViewport) {
	page := in.open(t, vp.width, vp.height, "", theme, "material3")
	// The screenshots: both themes at 1400, light at 390.
	desktop := vp == scaleDesktop
	shots := desktop || theme == "light"
	t.Run("header at most 72 px", func(t *testing.T) {
		waitFor(t, page, selHeader, "the header")
		var h float64
		evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).getBoundingClientRect().height)`, selHeader, &h)
		if h > maxHeaderHeight {
			t.Errorf("header height: got %.0f px, want ≤ %d px", h, maxHeaderHeight)
		}
	})
	t.Run("no horizontal scroll", func(t *testing.T) { checkNoHScroll(t, page, "dashboard") })
	t.Run("call list height", func(t *testing.T) {
		rows := count(t, page, `[data-testid="call-row"]`)
		if rows == 0 || rows > maxRowsOnPage {
			t.Errorf("call rows on the page: got %d, want 1..%d of the %d stored", rows, maxRowsOnPage, scaleCalls)
		}
		if count(t, page, `[data-testid="calls-older"]`) == 0 {
			t.Errorf("no calls-older button with %d stored calls and %d on the page", scaleCalls, rows)
		}
		var h float64
		evalJSON(t, page, `() => {
			const rows = [...document.querySelectorAll('[data-testid="call-row"]')];
			if (!rows.length) return JSON.stringify(0);
			const list = document.querySelector('[data-testid="calls-list"]') || rows[0].parentElement;
			return JSON.stringify(Math.max(list.getBoundingClientRect().height,
				rows[rows.length-1].getBoundingClientRect().bottom - rows[0].getBoundingClientRect().top));
		}`, nil, &h)
		if h > maxListHeight {
			t.Errorf("call list height with %d rows: got %.0f px, want ≤ %d px", rows, h, maxListHeight)
		}
		t.Logf("call list: %d rows, %.0f px", rows, h)
	})
	t.Run("error row shows its message", func(t *testing.T) {
		row := scaleRow(scaleErrorID)
		waitFor(t, page, row, "the seeded error call's row")
		if got := attr(t, page, row, "data-status"); got != "error" {
			t.Errorf("error call's row data-status: got %q, want error", got)
		}
		if count(t, page, row+` [data-testid="call-row-error"]`) == 0 {
			t.Fatalf("error call's row has no call-row-error")
		}
		if got := text(t, page, row+` [data-testid="call-row-error"]`); !strings.Contains(got, "fail_always failed on purpose") {
			t.Errorf("call-row-error: got %q, want the call's message %q", got, scaleErrorText)
		}
		if !visible(t, page, row+` [data-testid="call-row-error"]`) {
			t.Errorf("call-row-error is not visible")
		}
		var bare int
		evalJSON(t, page, `() => JSON.stringify([...document.querySelectorAll('[data-testid="call-row"][data-status="error"]')]
			.filter(r => !(r.querySelector('[data-testid="call-row-error"]')?.textContent.trim())).length)`, nil, &bare)
		if bare > 0 {
			t.Errorf("%d error rows without an error message", bare)
		}
	})
	if shots {
		name := "dashboard-" + theme + "-1400"
		if !desktop {
			name = "mobile-390"
		}
		scrollTop(t, page)
		screenshot(t, page, name, false)
	}
	t.Run("opening a card keeps the scroll position", func(t *testing.T) {
		var id string
		evalJSON(t, page, `() => {
			const rows = [...document.querySelectorAll('[data-testid="call-row"]')];
			const r = rows[Math.min(40, rows.length - 1)];
			r.scrollIntoView({block: 'center'});
			return JSON.stringify(r.dataset.invocation || '');
		}`, nil, &id)
		if id == "" {
			t.Fatalf("call-row has no data-invocation")
		}
		before := rowPosition(t, page, id)
		openCallCard(t, page, id)
		after := rowPosition(t, page, id)
		if d := after.ScrollY - before.ScrollY; d > 2 || d < -2 {
			t.Errorf("page scrolled by %.0f px when the card opened, want it kept", d)
		}
		if d := after.Top - before.Top; d > 2 || d < -2 {
			t.Errorf("the opened row moved by %.0f px on screen, want it kept (before %+v, after %+v)", d, before, after)
		}
	})
	t.Run("result h3 at least the body size", func(t *testing.T) {
		// The result's "### Deployments", whatever h-level the card nests
		// it at, against the result's own paragraph text and the body.
		slot := openCallCard(t, page, scaleMarkdownID)
		text := slot + ` [data-testid="content-text"]`
		waitFor(t, page, text+` p`, "the markdown result's text in the opened card")
		var sizes struct {
			Tag       string
			H3, Body  float64
			Paragraph float64
		}
		evalJSON(t, page, `sel => {
			const px = el => parseFloat(getComputedStyle(el).fontSize);
			const h = [...document.querySelectorAll(sel + ' :is(h1,h2,h3,h4,h5,h6)')].find(e => e.textContent.trim() === 'Deployments');
			const p = document.querySelector(sel + ' p');
			return JSON.stringify({tag: h ? h.tagName.toLowerCase() : '', h3: h ? px(h) : 0, body: px(document.body), paragraph: px(p)});
		}`, text, &sizes)
		if sizes.Tag == "" {
			t.Fatalf("no heading \"Deployments\" rendered from the result's ### line")
		}
		if want := max(sizes.Body, sizes.Paragraph); sizes.H3 < want {
			t.Errorf("result ### heading (<%s>) font size: got %.1f px, want ≥ %.1f px (body %.1f, paragraph %.1f)",
				sizes.Tag, sizes.H3, want, sizes.Body, sizes.Paragraph)
		}
		t.Logf("### heading <%s> %.1f px; body %.1f px, paragraph %.1f px", sizes.Tag, sizes.H3, sizes.Body, sizes.Paragraph)
	})
	t.Run("error card opens with the error first", func(t *testing.T) {
		slot := openCallCard(t, page, scaleErrorID)
		waitVisible(t, page, slot+` [data-testid="call-card-error"]`, "the error at the top of the error call's card (contract: call-card-error)")
		if got := text(t, page, slot+` [data-testid="call-card-error"]`); !strings.Contains(got, "fail_always failed on purpose") {
			t.Errorf("call-card-error: got %q, want the call's message", got)
		}
		checkNoHScroll(t, page, "error card open")
		if theme == "light" && desktop {
			if err := page.Locator(scaleRow(scaleErrorID)).ScrollIntoViewIfNeeded(); err == nil {
				screenshot(t, page, "calls-error-card-1400", false)
			}
		}
	})
	if !desktop {
		// The dashboard with a Markdown and an error card open in the list.
		t.Run("axe dashboard with cards open", func(t *testing.T) {
			checkAxe(t, page, theme+" "+vp.name+" dashboard with cards open")
		})
	}
	t.Run("drawer history pictures", func(t *testing.T) {
		scaleOpenDrawer(t, page, scaleDrawerServer)
		drawer := drawerSel(scaleDrawerServer)
		waitFor(t, page, drawer+` [data-testid="uptime-strip"]`, "the drawer's uptime strip")
		if n := count(t, page, drawer+` [data-testid="uptime-strip"] [data-testid="uptime-bar"]`); n != 96 {
			t.Errorf("uptime bars: got %d, want 96 (24 h of 15 min)", n)
		}
		waitFor(t, page, drawer+` [data-testid="latency-sparkline"]`, "the drawer's latency sparkline")
		summary := text(t, page, drawer+` [data-testid="latency-summary"]`)
		for _, p := range []string{"p50", "p95"} {
			if !strings.Contains(strings.ToLower(summary), p) {
				t.Errorf("latency-summary %q: want it to state %s", summary, p)
			}
		}
		checkNoHScroll(t, page, "drawer open")
		if !desktop {
			checkAxe(t, page, theme+" "+vp.name+" drawer open")
		}
		if theme == "light" && !desktop {
			screenshot(t, page, "mobile-390-drawer", false)
		}
	})
	t.Run("calls chart bar filters the list", func(t *testing.T) {
		goTo(t, page, in.URL+"/")
		dismissApproval(t, page)
		waitFor(t, page, `[data-testid="calls-chart"]`, "the calls-per-minute chart")
		bar := `[data-testid="calls-chart"] a[data-testid="calls-chart-bar"][href*="from="]`
		n := count(t, page, bar)
		if n == 0 {
			t.Fatalf("no calls-chart-bar link with from= in the chart, with 600 calls in the last hour")
		}
		loc := page.Locator(bar).Nth(n - 1)
		if err := loc.Click(); err != nil {
			t.Fatalf("click the newest chart bar: %v", err)
		}
		if err := page.WaitForURL(regexp.MustCompile(`[?&]from=\d+.*&to=\d+|[?&]to=\d+.*&from=\d+`)); err != nil {
			t.Fatalf("after clicking a chart bar the URL is %s, want from= and to=", page.URL())
		}
		u, err := url.Parse(page.URL())
		if err != nil {
			t.Fatal(err)
		}
		from, _ := strconv.ParseInt(u.Query().Get("from"), 10, 64)
		to, _ := strconv.ParseInt(u.Query().Get("to"), 10, 64)
		waitFor(t, page, `[data-testid="call-row"]`, "rows of the chosen minute")
		var started []string
		evalJSON(t, page, `() => JSON.stringify([...document.querySelectorAll('[data-testid="call-row"] [data-testid="call-row-started"]')]
			.map(e => e.getAttribute('datetime') || ''))`, nil, &started)
		for _, s := range started {
			at, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				t.Errorf("call-row-started datetime %q: %v", s, err)
				continue
			}
			if ms := at.UnixMilli(); ms < from || ms >= to {
				t.Errorf("row started %s outside the chosen range [%d, %d)", s, from, to)
			}
		}
		if len(started) == 0 || len(started) > maxRowsOnPage {
			t.Errorf("rows after filtering to one minute: got %d", len(started))
		}
		checkNoHScroll(t, page, "filtered by a chart bar")
	})
}

// scaleRow matches the call list's row of invocation id.
func scaleRow(id string) string {
	return fmt.Sprintf(`[data-testid="call-row"][data-invocation=%q]`, id)
}

// rowSpot is where a row sits: the page's scroll offset and the row's top
// on screen.
type rowSpot struct {
	ScrollY float64 `json:"scrollY"`
	Top     float64 `json:"top"`
}

func rowPosition(t *testing.T, page playwright.Page, id string) rowSpot {
	t.Helper()
	var s rowSpot
	evalJSON(t, page, `sel => JSON.stringify({scrollY: window.scrollY, top: document.querySelector(sel).getBoundingClientRect().top})`, scaleRow(id), &s)
	return s
}

// openCallCard opens id's card in place by its row's toggle, waits for it
// to load and returns a selector of the slot holding it.
func openCallCard(t *testing.T, page playwright.Page, id string) string {
	t.Helper()
	toggle := scaleRow(id) + ` [data-testid="call-row-toggle"]`
	waitFor(t, page, toggle, "the row toggle of "+id)
	if attr(t, page, toggle, "aria-expanded") != "true" {
		if err := page.Locator(toggle).Focus(); err != nil {
			t.Fatalf("focus %s: %v", toggle, err)
		}
		press(t, page, "Enter")
	}
	waitFor(t, page, toggle+`[aria-expanded="true"]`, "Enter on the row of "+id+" expands it")
	slotID := attr(t, page, toggle, "aria-controls")
	if slotID == "" {
		t.Fatalf("row toggle of %s has no aria-controls naming its card", id)
	}
	slot := "#" + slotID
	waitVisible(t, page, slot+` [data-testid="call-card"], `+slot+` [data-testid="invocation-card"]`, "the card of "+id+" in place")
	settle(t, page)
	return slot
}

// checkNoHScroll fails when the page is wider than the viewport, naming
// the widest offenders.
func checkNoHScroll(t *testing.T, page playwright.Page, scene string) {
	t.Helper()
	var r struct {
		Scroll, Client int
		Wide           []string
	}
	evalJSON(t, page, `() => {
		const d = document.documentElement, w = d.clientWidth;
		const wide = [...document.querySelectorAll('body *')]
			.filter(e => e.getClientRects().length && e.getBoundingClientRect().right > w + 1)
			.slice(0, 5)
			.map(e => e.tagName.toLowerCase() + (e.dataset.testid ? '[data-testid=' + e.dataset.testid + ']' : '') +
				(e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') +
				' right=' + Math.round(e.getBoundingClientRect().right));
		return JSON.stringify({scroll: d.scrollWidth, client: w, wide});
	}`, nil, &r)
	if r.Scroll > r.Client {
		t.Errorf("%s: horizontal scroll, page %d px wide in a %d px viewport; widest: %s", scene, r.Scroll, r.Client, strings.Join(r.Wide, "; "))
	}
}

// scrollTop scrolls the page to its top, as a person arriving sees it.
func scrollTop(t *testing.T, page playwright.Page) {
	t.Helper()
	waitTrue(t, page, `() => { window.scrollTo(0, 0); return window.scrollY === 0; }`, nil, "the page scrolled to its top")
}
