//go:build e2e

package e2e

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestChartsDrawHistoryAndCalls: a connected server's drawer loads its
// uptime strip (96 quarter hours, the last one holding the connect) and its
// latency text; the calls chart above the list counts a call made through
// the API, redrawn over the event stream, and its bar filters the list to
// its minute.
func TestChartsDrawHistoryAndCalls(t *testing.T) {
	const name = "demo"
	in := startWith(t, servers{name: demoStdio(name, nil)})
	in.waitState(t, name, "connected")
	page := open(t, in)
	waitAllChips(t, page, name, "connected")

	chart := `[data-testid="calls-chart"]`
	waitFor(t, page, chart+` [data-testid="calls-chart-summary"]`, "the calls chart's summary")
	callTool(t, in, name, "echo", map[string]any{"message": "chart me"})
	bar := chart + ` [data-testid="calls-chart-bar"]`
	waitFor(t, page, bar, "a calls-chart bar after a call")

	drawer := drawerSel(name)
	openDrawer(t, page, name)
	waitFor(t, page, drawer+` [data-testid="uptime-strip"]`, "the uptime strip")
	if n := count(t, page, drawer+` [data-testid="uptime-bar"]`); n != 96 {
		t.Errorf("uptime bars: got %d, want 96", n)
	}
	last := drawer + ` [data-testid="uptime-bar"]:last-child`
	if got := text(t, page, last); !strings.Contains(got, "→") {
		t.Errorf("the last bar's text %q lists no change", got)
	}
	summary := text(t, page, drawer+` [data-testid="latency-summary"]`)
	if !regexp.MustCompile(`Calls\s*p50 [\d.]+ ms · p95 [\d.]+ ms`).MatchString(summary) {
		t.Errorf("latency summary %q does not state the call's p50/p95", summary)
	}
	page.Locator(drawer + ` [data-testid="uptime-bar"][tabindex]`).Last().Focus()
	checkAxe(t, page, "drawer with its history, a bar focused")
	if err := page.Keyboard().Press("Escape"); err != nil {
		t.Fatal(err)
	}

	if err := page.Locator(bar).First().Click(); err != nil {
		t.Fatalf("click the bar: %v", err)
	}
	if err := page.WaitForURL(regexp.MustCompile(`[?&]from=\d+`)); err != nil {
		t.Fatalf("the bar led to %s: %v", page.URL(), err)
	}
	u, err := url.Parse(page.URL())
	if err != nil {
		t.Fatal(err)
	}
	if u.Query().Get("from") == "" || u.Query().Get("to") == "" {
		t.Errorf("the filtered list's address %s has no from/to", page.URL())
	}
	waitFor(t, page, `[data-testid="call-row"]`, "the minute's call in the list")
	waitFor(t, page, bar, "the chart on the filtered page")
	checkAxe(t, page, "calls chart above a filtered list")
}
