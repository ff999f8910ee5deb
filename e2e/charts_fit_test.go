//go:build e2e

package e2e

import (
	"strconv"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestChartsFitTheDrawer: on a 390×844 phone (the drawer a full-screen
// sheet) and with the drawer docked at 1400×900, the uptime strip, the
// latency sparklines and the calls chart stay inside their containers:
// neither the drawer nor the page scrolls sideways, and no part of a
// picture (a bar's hidden text included) reaches past the drawer's edge,
// also while a bar's detail is shown.
func TestChartsFitTheDrawer(t *testing.T) {
	const name = "demo"
	in := startWith(t, servers{name: demoStdio(name, nil)})
	in.waitState(t, name, "connected")
	callTool(t, in, name, "echo", map[string]any{"message": "a call for the sparkline and the chart"})

	for _, size := range []struct{ w, h int }{{390, 844}, {1400, 900}} {
		page := viewport(t, in, size.w, size.h)
		scene := func(s string) string { return s + " at " + strconv.Itoa(size.w) + " px" }
		waitFor(t, page, `[data-testid="calls-chart"] [data-testid="calls-chart-bar"]`, scene("the calls chart's bar"))
		checkFits(t, page, `[data-testid="calls-chart"]`, scene("calls chart"))

		drawer := drawerSel(name)
		openDrawer(t, page, name)
		waitFor(t, page, drawer+` [data-testid="uptime-strip"]`, scene("the uptime strip"))
		waitFor(t, page, drawer+` [data-testid="latency-sparkline"]`, scene("the latency sparkline"))
		if n := count(t, page, drawer+` [data-testid="uptime-bar"]`); n != 96 {
			t.Errorf("%s: uptime bars: got %d, want 96", scene("drawer"), n)
		}
		settle(t, page)
		checkFits(t, page, drawer, scene("drawer with its history"))
		if err := page.Locator(drawer + ` [data-testid="uptime-bar"][tabindex]`).Last().Focus(); err != nil {
			t.Fatal(err)
		}
		checkFits(t, page, drawer, scene("drawer with a bar's detail shown"))
		if err := page.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// checkFits fails when the element at sel scrolls sideways, when anything
// inside it that is laid out reaches past its right edge (or the
// viewport's), or when the page itself is wider than the viewport.
func checkFits(t *testing.T, page playwright.Page, sel, scene string) {
	t.Helper()
	var r struct {
		Scroll, Client, PageScroll, PageClient int
		Wide                                   []string
	}
	evalJSON(t, page, `sel => {
		const el = document.querySelector(sel), doc = document.documentElement;
		const edge = Math.min(el.getBoundingClientRect().right, doc.clientWidth) + 1;
		const wide = [el, ...el.querySelectorAll('*')]
			.filter(e => e.getClientRects().length && e.getBoundingClientRect().right > edge)
			.slice(0, 5)
			.map(e => e.tagName.toLowerCase() + (e.dataset && e.dataset.testid ? '[data-testid=' + e.dataset.testid + ']' : '') +
				(typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '') +
				' right=' + Math.round(e.getBoundingClientRect().right));
		// Text overflows its box without widening it: measure the text too
		// (unless a box between it and el clips it), and name the innermost
		// boxes whose content is wider than they are.
		const clipped = e => { for (; e && e !== el; e = e.parentElement) if (getComputedStyle(e).overflowX !== 'visible') return true; return false; };
		for (const n of [...el.querySelectorAll('*')].flatMap(e => [...e.childNodes]).filter(n => n.nodeType === 3 && n.textContent.trim() && !clipped(n.parentElement))) {
			const rg = document.createRange(); rg.selectNodeContents(n);
			const right = rg.getBoundingClientRect().right;
			if (right > edge && wide.length < 8) wide.push('text "' + n.textContent.trim().slice(0, 30) + '" in ' + n.parentElement.tagName.toLowerCase() + '.' + n.parentElement.className + ' right=' + Math.round(right));
		}
		const over = [el, ...el.querySelectorAll('*')].filter(e => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 &&
			getComputedStyle(e).overflowX !== 'hidden' && ![...e.children].some(c => c.scrollWidth > c.clientWidth + 1 && c.clientWidth > 0));
		for (const e of over.slice(0, 4)) wide.push('wider inside: ' + e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + (typeof e.className === 'string' ? e.className : '') + ' ' + e.scrollWidth + '>' + e.clientWidth);
		return JSON.stringify({scroll: el.scrollWidth, client: el.clientWidth,
			pageScroll: doc.scrollWidth, pageClient: doc.clientWidth, wide});
	}`, sel, &r)
	if r.Scroll > r.Client {
		t.Errorf("%s: scrolls sideways, %d px of content in %d px; %s", scene, r.Scroll, r.Client, strings.Join(r.Wide, "; "))
		r.Wide = nil
	}
	if r.PageScroll > r.PageClient {
		t.Errorf("%s: the page is %d px wide in a %d px viewport", scene, r.PageScroll, r.PageClient)
	}
	if len(r.Wide) > 0 {
		t.Errorf("%s: these reach past the edge: %s", scene, strings.Join(r.Wide, "; "))
	}
}
