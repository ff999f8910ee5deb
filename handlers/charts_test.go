package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
	"github.com/switchboard-mcp/switchboard/views"
)

// chartsNow is the instant the charts' fixture clock shows.
var chartsNow = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// chartsFixture is a dashboard recording history into, and counting
// calls from, a real SQLite store.
type chartsFixture struct {
	*fixture
	history *domain.History
	store   *sqlite.InvocationStore
}

func newChartsFixture(t *testing.T) *chartsFixture {
	t.Helper()
	db, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := domaintest.NewClock(chartsNow)
	h, err := domain.NewHistory(t.Context(), domain.HistoryOptions{Store: db.HistoryStore(), Scope: testScope, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	f := &chartsFixture{history: h, store: db.InvocationStore()}
	f.fixture = newFixture(t, func(o *handlers.Options) {
		o.Scope = testScope
		o.History = h
		o.CallStats = f.store
		o.Now = clock.Now
		svc := domain.NewInvocations(domain.InvocationsOptions{Caller: o.Fleet, Catalog: o.Fleet, Store: f.store})
		t.Cleanup(func() { _ = svc.Close(context.Background()) })
		o.Invocations = svc
	})
	h.Record(f.fleet.Hub())
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return f
}

func (f *chartsFixture) getDoc(t *testing.T, path string) *goquery.Document {
	t.Helper()
	code, body := f.do(t, http.MethodGet, path, nil)
	if code != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", path, code, body)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestDrawerLoadsItsHistorySection(t *testing.T) {
	f := newChartsFixture(t)
	f.connect(t, stdio("alpha"), domain.Capabilities{})

	drawer := f.getDoc(t, handlers.ServerPath(handlers.PathUIDrawer, "alpha"))
	slot := drawer.Find(`[data-testid="drawer-history"]`)
	if url, _ := slot.Attr("hx-get"); url != handlers.ServerPath(handlers.PathUIServerHistory, "alpha") {
		t.Fatalf("history slot loads %q", url)
	}

	doc := f.getDoc(t, handlers.ServerPath(handlers.PathUIServerHistory, "alpha"))
	bars := doc.Find(`[data-testid="uptime-bar"]`)
	if bars.Length() != domain.UptimeSlots {
		t.Fatalf("bars: got %d, want %d", bars.Length(), domain.UptimeSlots)
	}
	last := bars.Last()
	if st, _ := last.Attr("data-state"); st != "connecting" {
		t.Errorf("the last bar (connecting, then connected) is %q, want its worst, connecting", st)
	}
	if n := last.Find(`[data-testid="uptime-change"]`).Length(); n != 2 {
		t.Errorf("last bar's changes: got %d, want 2", n)
	}
	if st, _ := bars.First().Attr("data-state"); st != "unknown" {
		t.Errorf("before the history began: got %q, want unknown", st)
	}
	if got := doc.Find(`[data-testid="latency-summary"]`).Text(); !strings.Contains(got, "no probe measured yet") {
		t.Errorf("latency summary: got %q", got)
	}
	if got, _ := doc.Find(`[data-testid="drawer-history"]`).Attr("hx-trigger"); strings.HasPrefix(got, "load") {
		t.Errorf("the drawn section loads itself again: %q", got)
	}
}

func TestCallsChartCountsStoredCalls(t *testing.T) {
	f := newChartsFixture(t)
	since, _ := views.CallsChartWindow(chartsNow)
	for i, st := range []domain.InvocationStatus{domain.InvocationSuccess, domain.InvocationError, domain.InvocationSuccess} {
		id := fmt.Sprintf("call-%d", i)
		start := since.Add(10*time.Minute + time.Duration(i)*time.Second)
		inv := domain.Invocation{ID: id, Scope: testScope, ServerName: "alpha", Tool: "echo",
			Key:       domain.CallKey{ConversationID: "c", MessageID: id, ToolCallID: id},
			Arguments: []byte(`{}`), Source: domain.SourceAPI, Status: st,
			StartedAt: start, EndedAt: start.Add(100 * time.Millisecond)}
		if err := f.store.SaveInvocation(t.Context(), inv); err != nil {
			t.Fatal(err)
		}
	}
	doc := f.getDoc(t, handlers.PathUICallsChart+"?server=alpha")
	bars := doc.Find(`[data-testid="calls-chart-bar"]`)
	if bars.Length() != 1 {
		t.Fatalf("bars: got %d, want 1", bars.Length())
	}
	if total, _ := bars.Attr("data-total"); total != "3" {
		t.Errorf("bar total: got %s, want 3", total)
	}
	href, _ := bars.Attr("href")
	if !strings.HasPrefix(href, handlers.PathDashboard+"?") || !strings.Contains(href, "server=alpha") || !strings.Contains(href, "from=") {
		t.Errorf("bar link: got %q", href)
	}
	if got, _ := doc.Find(`[data-testid="calls-chart"]`).Attr("hx-get"); got != handlers.PathUICallsChart+"?server=alpha" {
		t.Errorf("the chart redraws from %q", got)
	}
	if other := f.getDoc(t, handlers.PathUICallsChart+"?server=beta"); other.Find(`[data-testid="calls-chart-bar"]`).Length() != 0 {
		t.Error("another server's chart counts alpha's calls")
	}
}

func TestChartsWithoutHistoryDrawNothing(t *testing.T) {
	f := newFixture(t)
	for _, path := range []string{handlers.ServerPath(handlers.PathUIServerHistory, "alpha"), handlers.PathUICallsChart} {
		code, body := f.do(t, http.MethodGet, path, nil)
		if code != http.StatusOK || len(bytes.TrimSpace(body)) != 0 {
			t.Errorf("GET %s: got %d %q, want 200 and nothing", path, code, body)
		}
	}
}

func TestPageStreamSaysWhenAServersHistoryChanged(t *testing.T) {
	f := newChartsFixture(t)
	s := f.openPageEvents(t, nil)
	f.connect(t, stdio("alpha"), domain.Capabilities{})
	fr, _ := s.until(t, "the history event", func(fr sseFrame) bool { return fr.Event == views.HistoryEvent("alpha") })
	if fr.Data == "" {
		t.Error("a redraw signal without data is never dispatched by EventSource")
	}
}
