package views_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// hostile is a server name and error text that would run script if any
// picture put them in the page unescaped.
const hostile = `<img src=x onerror=alert(1)>"'&</svg>`

func historyInput(server string) views.HistoryInput {
	start, _ := domain.UptimeWindow(testNow)
	at := func(slot int, d time.Duration) time.Time { return start.Add(time.Duration(slot)*domain.UptimeSlot + d) }
	return views.HistoryInput{
		Server: server,
		Now:    testNow,
		URL:    "/ui/servers/x/history",
		Changes: []domain.StateChange{
			{Server: server, At: start.Add(-time.Hour), State: domain.StateConnected},
			{Server: server, At: at(50, time.Minute), State: domain.StateError, Error: hostile},
			{Server: server, At: at(50, 2*time.Minute), State: domain.StateConnected},
		},
		Probes: []domain.ProbeSample{
			{Server: server, At: at(90, 0), Latency: 10 * time.Millisecond},
			{Server: server, At: at(91, 0), Latency: 20 * time.Millisecond},
			{Server: server, At: at(92, 0), Latency: 30 * time.Millisecond},
		},
		Calls: []domain.CallTiming{
			{Status: domain.InvocationSuccess, StartedAt: at(93, 0), EndedAt: at(93, 400*time.Millisecond)},
			{Status: domain.InvocationDenied, StartedAt: at(93, 0), EndedAt: at(93, time.Millisecond)},
		},
	}
}

func TestDrawerHistoryDrawsADayOfBarsWithText(t *testing.T) {
	doc := renderComponent(t, "en", views.DrawerHistory(views.NewDrawerHistoryProps(historyInput(hostile))))
	if n := doc.Find(`[data-testid="uptime-strip"]`).Length(); n != 1 {
		t.Fatalf("uptime strips: got %d, want 1", n)
	}
	bars := doc.Find(`[data-testid="uptime-bar"]`)
	if bars.Length() != domain.UptimeSlots {
		t.Fatalf("bars: got %d, want %d", bars.Length(), domain.UptimeSlots)
	}
	errBar := bars.Eq(50)
	if st, _ := errBar.Attr("data-state"); st != "error" {
		t.Errorf("bar 50 state: got %q, want error", st)
	}
	if ti, ok := errBar.Attr("tabindex"); !ok || ti != "0" {
		t.Errorf("bar 50 with changes: got tabindex %q (%v), want 0", ti, ok)
	}
	if _, ok := bars.Eq(10).Attr("tabindex"); ok {
		t.Error("a quiet connected bar is in the tab order")
	}
	if n := doc.Find(`[tabindex]`).Length(); n != 1 {
		t.Errorf("focusable bars: got %d, want 1", n)
	}
	tip := errBar.Find(".ub-tip").Text()
	for _, want := range []string{"Error", "→", hostile} {
		if !strings.Contains(tip, want) {
			t.Errorf("bar 50's text %q lacks %q", tip, want)
		}
	}
	if n := errBar.Find(`[data-testid="uptime-change"]`).Length(); n != 2 {
		t.Errorf("bar 50 changes: got %d, want 2", n)
	}
	if n := doc.Find("img").Length(); n != 0 {
		t.Errorf("the hostile error became %d img elements", n)
	}
	// One minute of error in a day otherwise connected.
	if got := doc.Find(`[data-testid="uptime-summary"]`).Text(); !strings.Contains(got, "99.9 %") {
		t.Errorf("summary: got %q, want 99.9 %%", got)
	}
	if got := doc.Find(`[data-testid="uptime-legend"]`).Text(); !strings.Contains(got, "Error · 1 bar") || !strings.Contains(got, "Connected · 95 bars") {
		t.Errorf("legend: got %q", got)
	}
}

func TestLatencySparklineStatesPercentiles(t *testing.T) {
	doc := renderComponent(t, "en", views.DrawerHistory(views.NewDrawerHistoryProps(historyInput("alpha"))))
	summary := doc.Find(`[data-testid="latency-summary"]`)
	if summary.Length() != 1 {
		t.Fatal("no latency summary")
	}
	probes := strings.Join(strings.Fields(doc.Find(`[data-testid="latency-probes"]`).Text()), " ")
	if !strings.Contains(probes, "p50 20 ms · p95 30 ms") || !strings.Contains(probes, "3 samples") {
		t.Errorf("probes: got %q", probes)
	}
	calls := strings.Join(strings.Fields(doc.Find(`[data-testid="latency-calls"]`).Text()), " ")
	if !strings.Contains(calls, "p50 400 ms · p95 400 ms") || !strings.Contains(calls, "1 call") {
		t.Errorf("calls (the denied one has no round trip): got %q", calls)
	}
	svg := doc.Find(`[data-testid="latency-sparkline"] svg[role="img"]`)
	if svg.Length() != 2 {
		t.Fatalf("sparklines: got %d, want 2", svg.Length())
	}
	if svg.First().Find("title").Text() == "" || svg.First().Find("desc").Text() == "" {
		t.Error("a sparkline lacks its title or desc")
	}
}

func TestLatencySparklineWithoutSamplesSaysSo(t *testing.T) {
	in := historyInput("alpha")
	in.Probes, in.Calls = nil, nil
	doc := renderComponent(t, "pt-BR", views.DrawerHistory(views.NewDrawerHistoryProps(in)))
	if n := doc.Find(`[data-testid="latency-sparkline"] svg[role="img"]`).Length(); n != 0 {
		t.Errorf("sparklines drawn from nothing: %d", n)
	}
	if got := doc.Find(`[data-testid="latency-summary"]`).Text(); !strings.Contains(got, "nenhuma sondagem") {
		t.Errorf("summary: got %q", got)
	}
}

func TestDrawerHistorySlotLoadsItself(t *testing.T) {
	doc := renderComponent(t, "en", views.DrawerHistory(views.NewDrawerHistorySlot("alpha", "/ui/servers/alpha/history")))
	sec := doc.Find(`[data-testid="drawer-history"]`)
	if got, _ := sec.Attr("hx-trigger"); !strings.HasPrefix(got, "load, sse:"+views.HistoryEvent("alpha")) {
		t.Errorf("trigger: got %q", got)
	}
	if doc.Find(`[data-testid="uptime-strip"]`).Length() != 0 {
		t.Error("the slot draws bars before loading them")
	}
	if doc := renderComponent(t, "en", views.DrawerHistory(views.NewDrawerHistorySlot("alpha", ""))); doc.Find("section").Length() != 0 {
		t.Error("no history kept, yet a section is drawn")
	}
}

func TestTooltipDrawsLastProbesFromTheContext(t *testing.T) {
	st := domain.Status{ServerName: hostile, State: domain.StateConnected}
	probes := []domain.ProbeSample{{Latency: 8 * time.Millisecond}, {Latency: 12 * time.Millisecond}, {Latency: 10 * time.Millisecond}}
	var asked string
	src := views.ProbeSource(func(server string) []domain.ProbeSample { asked = server; return probes })
	tip := views.Tooltip("tip", views.NewTooltipProps(st, testNow))

	doc := renderComponent(t, "en", tip)
	if doc.Find(`[data-testid="tooltip-sparkline"]`).Length() != 0 {
		t.Error("a sparkline without a probe source")
	}
	c, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx := views.WithProbeSource(locales.WithLocalizer(context.Background(), c.Localizer("en")), src)
	var b strings.Builder
	if err := tip.Render(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if asked != hostile {
		t.Errorf("asked for %q, want the server's name", asked)
	}
	html := b.String()
	if !strings.Contains(html, `data-testid="tooltip-sparkline"`) {
		t.Fatal("no sparkline")
	}
	if !strings.Contains(html, "8–12 ms, newest 10 ms") {
		t.Errorf("no text equivalent in %s", html)
	}
}

// TestUptimeBarOfAFlappingServerStaysShort: a quarter hour with many
// changes lists the first and last three, says how many are left out,
// and cuts each error, so a flapping server cannot bloat the drawer.
func TestUptimeBarOfAFlappingServerStaysShort(t *testing.T) {
	start, _ := domain.UptimeWindow(testNow)
	changes := []domain.StateChange{{Server: "f", At: start.Add(-time.Minute), State: domain.StateConnected}}
	for i := range 10 {
		st := domain.StateError
		if i%2 == 1 {
			st = domain.StateConnected
		}
		changes = append(changes, domain.StateChange{Server: "f", At: start.Add(time.Duration(i+1) * time.Second), State: st,
			Error: strings.Repeat("x", 5000)})
	}
	p := views.NewUptimeStripProps("f", domain.UptimeBars(changes, testNow), nil, time.UTC)
	b := p.Bars[0]
	if len(b.Changes) != 6 || b.Hidden != 4 || b.HiddenAt != 3 {
		t.Fatalf("bar: got %d changes shown, %d hidden at %d; want 6 shown, 4 hidden at 3", len(b.Changes), b.Hidden, b.HiddenAt)
	}
	for _, c := range b.Changes {
		if n := utf8.RuneCountInString(c.Error); n > 201 {
			t.Errorf("error of %d runes, want at most 200 and an ellipsis", n)
		}
	}
	doc := renderFragment(t, "en", views.UptimeStrip(p))
	if got := doc.Find(`[data-testid="uptime-more"]`).Text(); !strings.Contains(got, "4 more changes") {
		t.Errorf("note: got %q, want it to say 4 more changes", got)
	}
}
