//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// headerFleet is a dozen servers, enough for the list's filter box: one
// failing, one connected, and ten disabled in the settings file (no
// process), one of them with a long target.
func headerFleet(t *testing.T) *instance {
	t.Helper()
	cfg := servers{
		"t-live":  demoStdio("t-live", nil),
		"s-error": missingCommand(),
		"z-long": {"command": "/usr/bin/node", "disabled": true,
			"args": []string{"/home/someone/projects/switchboard-e2e/node_modules/@modelcontextprotocol/server-memory/dist/index.js",
				"--label", "abcdefghijklmnopqrstuvwxyz0"}},
	}
	for i := range 9 {
		name := fmt.Sprintf("s-off-%d", i)
		cfg[name] = demoStdio(name, map[string]any{"disabled": true})
	}
	in := startWith(t, cfg)
	in.waitState(t, "t-live", "connected")
	in.waitState(t, "s-error", "error")
	return in
}

// TestHeaderAndServerList: at 1400×900 and 390×844, light and dark, the
// header is one row at most 72px high with a summary in words whose
// counts filter the list, the page never scrolls sideways, the list is
// failing first with a filter box above ten servers, counts on one line
// and a long target shortened in the middle; the settings popover opens
// with Enter, closes with Escape and gives focus back; axe is clean with
// it open and closed.
func TestHeaderAndServerList(t *testing.T) {
	in := headerFleet(t)
	for _, size := range []playwright.Size{{Width: 1400, Height: 900}, {Width: 390, Height: 844}} {
		for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
			t.Run(fmt.Sprintf("%dx%d/%s", size.Width, size.Height, *scheme), func(t *testing.T) {
				page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US"),
					ColorScheme: scheme, Viewport: &playwright.Size{Width: size.Width, Height: size.Height}})
				waitAllChips(t, page, "s-error", "error")
				waitAllChips(t, page, "t-live", "connected")
				checkHeaderLayout(t, page)
				checkServerList(t, page, size.Width)
				checkAxe(t, page, "page")
				checkSettingsKeyboard(t, page)
				checkSummaryFilters(t, page)
				if size.Width >= 1200 {
					checkListBesideDockedDrawer(t, page)
				}
			})
		}
	}
}

// TestServerListLiveOrder: a server that changes state moves to its
// group's place in the list and the header's counts follow, without a
// reload.
func TestServerListLiveOrder(t *testing.T) {
	in := headerFleet(t)
	page := open(t, in)
	waitAllChips(t, page, "t-live", "connected")
	in.post(t, "t-live", "disable")
	waitAllChips(t, page, "t-live", "disabled")
	waitTrue(t, page, `() => {
		const names = [...document.querySelectorAll('[data-testid="server-row"]')].map(r => r.dataset.server);
		return names.indexOf('t-live') === 10 && names[0] === 's-error';
	}`, nil, "t-live moves among the disabled servers, by name")
	waitTrue(t, page, `() => document.querySelector('#summary-connected')?.textContent.includes('0 connected') &&
		document.querySelector('#summary-disabled')?.textContent.includes('11 disabled')`, nil, "the summary counts follow")
}

func checkHeaderLayout(t *testing.T, page playwright.Page) {
	t.Helper()
	var m struct {
		Header, ScrollW, ClientW float64
		Chips                    int
		SummaryOneLine           bool
	}
	evalJSON(t, page, `() => {
		const h = document.querySelector('[data-testid="header"]').getBoundingClientRect();
		const s = document.querySelector('[data-testid="header-summary"]');
		const links = [...s.querySelectorAll('a')].filter(a => a.getClientRects().length > 0).map(a => a.getBoundingClientRect());
		return JSON.stringify({Header: h.height, ScrollW: document.documentElement.scrollWidth,
			ClientW: document.documentElement.clientWidth,
			Chips: document.querySelectorAll('[data-testid="header"] [data-testid="status-chip"]').length,
			SummaryOneLine: links.every(r => Math.abs(r.top - links[0].top) < 2)});
	}`, nil, &m)
	// Every state group with a two-digit count, as a fleet of 50 shows:
	// each count must be whole inside the summary, not behind its scroll.
	var cut []string
	evalJSON(t, page, `() => {
		const s = document.querySelector('[data-testid="header-summary"]');
		const was = s.innerHTML;
		const proto = s.querySelector('#summary-connected');
		for (const g of ['sign_in', 'starting']) {
			if (s.querySelector('#summary-' + g)) continue;
			const a = proto.cloneNode(true);
			a.id = 'summary-' + g; a.dataset.group = g;
			s.appendChild(a);
		}
		for (const n of s.querySelectorAll('.sum-short')) n.lastChild.textContent = '48';
		const box = s.getBoundingClientRect();
		const out = [...s.querySelectorAll('a')].filter(a => a.getClientRects().length > 0)
			.filter(a => { const r = a.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5; })
			.map(a => a.id);
		if (s.scrollWidth > s.clientWidth + 1) out.push('summary scrolls: ' + s.scrollWidth + ' > ' + s.clientWidth);
		s.innerHTML = was;
		return JSON.stringify(out);
	}`, nil, &cut)
	if len(cut) > 0 {
		t.Errorf("summary counts cut off with six groups: %v", cut)
	}
	if m.Header > 72 {
		t.Errorf("header height %vpx, want at most 72", m.Header)
	}
	if m.ScrollW > m.ClientW {
		t.Errorf("page scrolls sideways: scrollWidth %v > clientWidth %v", m.ScrollW, m.ClientW)
	}
	if m.Chips != 0 || !m.SummaryOneLine {
		t.Errorf("header: %d chips, summary on one line %v; want no chips and one line", m.Chips, m.SummaryOneLine)
	}
	if got := text(t, page, `#summary-all`); !strings.Contains(got, "12 servers") {
		t.Errorf("summary total %q, want 12 servers", got)
	}
	if got := text(t, page, `#summary-failing`); !strings.Contains(got, "1 failing") {
		t.Errorf("summary failing %q, want 1 failing", got)
	}
}

func checkServerList(t *testing.T, page playwright.Page, width int) {
	t.Helper()
	var order []string
	evalJSON(t, page, `() => JSON.stringify([...document.querySelectorAll('[data-testid="server-row"]')].map(r => r.dataset.server))`, nil, &order)
	if len(order) != 12 || order[0] != "s-error" || order[1] != "t-live" {
		t.Errorf("rows %v; want failing first, then connected, then the disabled ones by name", order)
	}
	var m struct {
		CountsOneLine, TailShown, Title, SpaceKept bool
		ListWidth, PageWidth                       float64
	}
	evalJSON(t, page, `() => {
		const counts = [...document.querySelectorAll('[data-testid="row-counts"]')];
		const code = document.querySelector('[data-server="z-long"] [data-testid="row-target"]');
		const tail = code.querySelector('.target-tail').getBoundingClientRect(), box = code.getBoundingClientRect();
		return JSON.stringify({
			CountsOneLine: counts.every(c => [...c.querySelectorAll('.cap-count')].every(s => s.getClientRects().length === 1 && s.getBoundingClientRect().top === c.querySelector('.cap-count').getBoundingClientRect().top)),
			TailShown: tail.width > 0 && tail.right <= box.right + 1,
			Title: code.title.endsWith('/dist/index.js --label abcdefghijklmnopqrstuvwxyz0'),
			SpaceKept: code.querySelector('.target-tail').textContent.startsWith(' ') &&
				code.querySelector('.target-tail').innerText.startsWith(' '),
			ListWidth: document.querySelector('[data-testid="server-list"]').getBoundingClientRect().width,
			PageWidth: document.documentElement.clientWidth,
		});
	}`, nil, &m)
	if !m.CountsOneLine {
		t.Errorf("capability counts wrap")
	}
	if !m.TailShown || !m.Title {
		t.Errorf("long target: tail shown %v, whole text in title %v", m.TailShown, m.Title)
	}
	if !m.SpaceKept {
		t.Errorf("long target: the space where it is cut in the middle is not shown")
	}
	if m.ListWidth < m.PageWidth-64 {
		t.Errorf("list %vpx wide on a %vpx page; want the full width", m.ListWidth, m.PageWidth)
	}
	filter := waitVisible(t, page, `[data-testid="server-filter"]`, "the filter box above ten servers")
	if err := filter.Fill("s-err"); err != nil {
		t.Fatal(err)
	}
	if n := visibleRows(t, page); n != 1 {
		t.Errorf("rows after filtering for s-err: %d visible, want 1", n)
	}
	if err := filter.Fill(""); err != nil {
		t.Fatal(err)
	}
	if n := visibleRows(t, page); n != 12 {
		t.Errorf("rows after clearing the filter: %d visible, want 12", n)
	}
}

func visibleRows(t *testing.T, page playwright.Page) int {
	t.Helper()
	var n int
	evalJSON(t, page, `() => JSON.stringify([...document.querySelectorAll('[data-testid="server-row"]')].filter(r => r.getClientRects().length > 0).length)`, nil, &n)
	return n
}

func checkSettingsKeyboard(t *testing.T, page playwright.Page) {
	t.Helper()
	btn := `[data-testid="settings-open"]`
	if err := page.Locator(btn).Focus(); err != nil {
		t.Fatal(err)
	}
	press(t, page, "Enter")
	waitVisible(t, page, `[data-testid="settings-panel"] [data-testid="theme-toggle"]`, "Enter opens the settings")
	if got := attr(t, page, btn, "aria-expanded"); got != "true" {
		t.Errorf("aria-expanded when open: %q", got)
	}
	waitTrue(t, page, `() => document.activeElement?.getAttribute('data-testid') === 'theme-toggle'`, nil,
		"focus moves to the theme select when the settings open")
	var m struct{ ScrollW, ClientW, Right float64 }
	evalJSON(t, page, `() => JSON.stringify({ScrollW: document.documentElement.scrollWidth, ClientW: document.documentElement.clientWidth,
		Right: document.querySelector('[data-testid="settings-panel"]').getBoundingClientRect().right})`, nil, &m)
	if m.Right > m.ClientW || m.ScrollW > m.ClientW {
		t.Errorf("settings popover %+v; want it inside the viewport", m)
	}
	checkAxe(t, page, "settings open")
	press(t, page, "Escape")
	waitHidden(t, page, `[data-testid="settings-panel"]`, "Escape closes the settings")
	if got := attr(t, page, btn, "aria-expanded"); got != "false" {
		t.Errorf("aria-expanded when closed: %q", got)
	}
	waitTrue(t, page, `() => document.activeElement?.getAttribute('data-testid') === 'settings-open'`, nil,
		"Escape gives focus back to the settings button")
}

func checkSummaryFilters(t *testing.T, page playwright.Page) {
	t.Helper()
	click(t, page, `#summary-failing`)
	waitTrue(t, page, `() => location.search.includes('state=failing')`, nil, "the address keeps the filter")
	if n := visibleRows(t, page); n != 1 {
		t.Errorf("rows with the failing filter: %d visible, want 1", n)
	}
	if got := attr(t, page, `#summary-failing`, "aria-current"); got != "true" {
		t.Errorf("failing link aria-current %q, want true", got)
	}
	waitVisible(t, page, `[data-testid="server-filter-note"]`, "the filter note")
	checkAxe(t, page, "failing filter")
	// "Show all" in the filter note: on a phone the total gives way to the
	// state counts.
	click(t, page, `[data-testid="server-filter-clear"]`)
	waitTrue(t, page, `() => !location.search.includes('state=')`, nil, "the address drops the filter")
	if n := visibleRows(t, page); n != 12 {
		t.Errorf("rows with every server: %d visible, want 12", n)
	}
}

// checkListBesideDockedDrawer opens a drawer docked beside the list and
// checks that no control of the server list lies behind it, that the page
// does not scroll sideways, and that the header's state links keep the
// call list's filters in their address.
func checkListBesideDockedDrawer(t *testing.T, page playwright.Page) {
	t.Helper()
	drawer := openDrawer(t, page, "t-live")
	waitTrue(t, page, `() => document.documentElement.classList.contains('drawer-docked')`, nil, "the drawer docks at this width")
	var m struct {
		Hidden           []string
		ScrollW, ClientW float64
	}
	evalJSON(t, page, `() => {
		const left = [...document.querySelectorAll('[data-testid="drawer"]')].map(e => e.getBoundingClientRect())
			.filter(r => r.width > 0).reduce((l, r) => Math.min(l, r.left), Infinity);
		const hidden = [...document.querySelectorAll('#servers :is(a, button, input, [tabindex])')]
			.filter(e => e.getClientRects().length > 0)
			.filter(e => e.getBoundingClientRect().right > left + 0.5)
			.map(e => (e.dataset.testid || e.tagName) + '@' + Math.round(e.getBoundingClientRect().right) + '>' + Math.round(left));
		return JSON.stringify({Hidden: hidden, ScrollW: document.documentElement.scrollWidth,
			ClientW: document.documentElement.clientWidth});
	}`, nil, &m)
	if len(m.Hidden) > 0 {
		t.Errorf("server list controls behind the docked drawer: %v", m.Hidden)
	}
	if m.ScrollW > m.ClientW {
		t.Errorf("page scrolls sideways with the drawer docked: %v > %v", m.ScrollW, m.ClientW)
	}
	if err := drawer.Locator(`[data-testid="drawer-close"]`).Click(); err != nil {
		t.Fatal(err)
	}
	waitHidden(t, page, drawerSel("t-live"), "drawer-close closes the drawer")
	// The call list's filters stay in the address when a state is chosen.
	evalJSON(t, page, `() => { history.replaceState(null, '', '?status=error&server=t-live'); return '1'; }`, nil, new(int))
	click(t, page, `#summary-failing`)
	waitTrue(t, page, `() => { const q = new URLSearchParams(location.search);
		return q.get('state') === 'failing' && q.get('status') === 'error' && q.get('server') === 't-live'; }`, nil,
		"choosing a state keeps the call list's filters")
	if got := attr(t, page, `#summary-all`, "href"); !strings.Contains(got, "status=error") || strings.Contains(got, "state=") {
		t.Errorf("summary total href %q; want the call filters kept and no state", got)
	}
	evalJSON(t, page, `() => { history.replaceState(null, '', location.pathname); return '1'; }`, nil, new(int))
}

// TestSettingsPopoverInEveryPreset runs axe on the open settings popover
// in every style preset, light and dark.
func TestSettingsPopoverInEveryPreset(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	in.waitState(t, "alpha", "connected")
	for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
		page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US"), ColorScheme: scheme})
		for _, preset := range presets {
			setPreference(t, page, "preset", preset)
			waitChip(t, page, "alpha", "connected")
			openSettings(t, page)
			checkAxe(t, page, fmt.Sprintf("%s/%s settings open", *scheme, preset))
			press(t, page, "Escape")
			waitHidden(t, page, `[data-testid="settings-panel"]`, "Escape closes the settings")
		}
	}
}
