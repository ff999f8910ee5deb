package views_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestCallsChartWindowEndsAfterNowsMinute(t *testing.T) {
	since, until := views.CallsChartWindow(time.Date(2026, 11, 30, 9, 41, 30, 0, time.UTC))
	if want := time.Date(2026, 11, 30, 9, 42, 0, 0, time.UTC); !until.Equal(want) {
		t.Errorf("until: got %v, want %v", until, want)
	}
	if got := until.Sub(since); got != time.Hour {
		t.Errorf("span: got %v, want 1h", got)
	}
}

func TestCallsChartLinksEachMinuteToTheList(t *testing.T) {
	since, _ := views.CallsChartWindow(testNow)
	minute := since.Add(3 * time.Minute)
	rows := []domain.MinuteOutcomes{
		{Start: since.Add(-time.Minute), Success: 99}, // before the window: ignored
		{Start: minute, Success: 2, Error: 1, Denied: 1},
		{Start: since.Add(59 * time.Minute), Other: 1},
	}
	f := views.CallsFilter{Server: hostile, Source: "api", Status: "error"}
	p := views.NewCallsChartProps(rows, testNow, f, "/")
	p.ReloadURL = "/ui/charts/calls"
	doc := renderComponent(t, "en", views.CallsChart(p))

	bars := doc.Find(`[data-testid="calls-chart-bar"]`)
	if bars.Length() != 2 {
		t.Fatalf("bars: got %d, want 2 (minutes with calls)", bars.Length())
	}
	href, _ := bars.First().Attr("href")
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("server") != hostile || q.Get("source") != "api" || q.Get("status") != "" {
		t.Errorf("bar keeps server and source and drops the status: got %v", q)
	}
	if q.Get("from") != strconv.FormatInt(minute.UnixMilli(), 10) || q.Get("to") != strconv.FormatInt(minute.Add(time.Minute).UnixMilli(), 10) {
		t.Errorf("bar range: got from %s to %s", q.Get("from"), q.Get("to"))
	}
	label, _ := bars.First().Attr("aria-label")
	for _, want := range []string{"4 calls", "Succeeded: 2", "Failed: 1", "Denied: 1"} {
		if !strings.Contains(label, want) {
			t.Errorf("label %q lacks %q", label, want)
		}
	}
	if n := bars.First().Find("rect.calls-seg").Length(); n != 3 {
		t.Errorf("segments: got %d, want 3", n)
	}
	if got := doc.Find(`[data-testid="calls-chart-summary"]`).Text(); !strings.Contains(got, "5 calls in the last hour") {
		t.Errorf("summary: got %q", got)
	}
	rowsText := doc.Find(`[data-testid="calls-chart-table"] tbody tr`)
	if rowsText.Length() != 2 {
		t.Errorf("table rows: got %d, want 2", rowsText.Length())
	}
	failed, ok := rowsText.First().Find("td a").Eq(1).Attr("href")
	if !ok || !strings.Contains(failed, "status=error") {
		t.Errorf("the failed count links to %q, want the minute's failed calls", failed)
	}
	if doc.Find("img").Length() != 0 {
		t.Error("the hostile server name became markup")
	}
	if got, _ := doc.Find(`[data-testid="calls-chart"]`).Attr("hx-trigger"); strings.HasPrefix(got, "load") {
		t.Errorf("a drawn chart loads itself again: %q", got)
	}
}

func TestCallsChartSlotAndNothing(t *testing.T) {
	doc := renderComponent(t, "zh-Hans", views.CallsChart(views.NewCallsChartSlot("/ui/charts/calls?server=a")))
	fig := doc.Find(`[data-testid="calls-chart"]`)
	if got, _ := fig.Attr("hx-trigger"); !strings.HasPrefix(got, "load, sse:"+views.CallsChartEvent) {
		t.Errorf("slot trigger: got %q", got)
	}
	if fig.Find(`[data-testid="calls-chart-bar"]`).Length() != 0 {
		t.Error("the slot draws bars")
	}
	if doc := renderComponent(t, "en", views.CallsChart(views.CallsChartProps{})); doc.Find("figure").Length() != 0 {
		t.Error("the zero value draws a chart")
	}
	empty := views.NewCallsChartProps(nil, testNow, views.CallsFilter{}, "/")
	doc = renderComponent(t, "en", views.CallsChart(empty))
	if got := doc.Find(`[data-testid="calls-chart-summary"]`).Text(); !strings.Contains(got, "No calls in the last hour") {
		t.Errorf("empty summary: got %q", got)
	}
	if doc.Find("details").Length() != 0 {
		t.Error("an empty table is offered")
	}
}
