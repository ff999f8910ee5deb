package handlers

import (
	"bytes"
	"fmt"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// Limits of what one picture reads: a day of probes at the shortest
// keep-alive the settings allow fits, and as many of the day's answered
// calls (times and status only, never results); past them the sparkline
// shows the newest, and its text says how many it drew.
const (
	chartProbeLimit = 6000
	chartCallLimit  = 6000
)

// charts serves the pictures as fragments that load and redraw themselves:
// a drawer's history section and the calls chart above the call list. The
// page stream only says when to redraw (chart_events.go), so a page pays
// for the queries of what it shows and nothing else.
type charts struct {
	history *domain.History  // nil: no history section
	stats   domain.CallStats // nil: no calls chart and no call times in the sparkline
	scope   domain.Scope
	prefs   *preferences
	now     func() time.Time
}

// registerCharts adds the pictures' routes and lets the page stream keep
// them live.
func registerCharts(e *echo.Echo, opts Options, prefs *preferences, stream *pageEvents) {
	ch := &charts{history: opts.History, stats: opts.CallStats, scope: opts.Scope, prefs: prefs, now: opts.Now}
	e.GET(PathUIServerHistory, ch.drawerHistory)
	e.GET(PathUICallsChart, ch.callsChart)
	stream.charts = ch
}

// historyURL is where a server's drawer loads its history section from;
// empty when no history is kept. drawerURLs names it for every drawer.
func historyURL(name string) string { return ServerPath(PathUIServerHistory, name) }

// callsChartSlot is the calls chart's empty slot for the page's filter,
// which loads the bars once the page shows; callsSection puts it above
// the list.
func callsChartSlot(f views.CallsFilter) views.CallsChartProps {
	// The chart counts by outcome, so the list's status and range filters
	// do not narrow it; its bars set them. The server list's state filter
	// rides along so a bar's link keeps it.
	scope := views.CallsFilter{Server: f.Server, Source: f.Source, State: f.State}
	return views.NewCallsChartSlot(scope.URL(PathUICallsChart))
}

// drawerHistory answers a drawer's history section: nothing (which
// removes the section) when no history is kept.
func (ch *charts) drawerHistory(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	if ch.history == nil {
		return ch.render(c, templ.NopComponent)
	}
	ctx := c.Request().Context()
	now := ch.now()
	start, _ := domain.UptimeWindow(now)
	in := views.HistoryInput{Server: name, Now: now, URL: historyURL(name)}
	if in.Changes, err = ch.history.StateChanges(ctx, name, start); err != nil {
		return err
	}
	if in.Probes, err = ch.history.ProbeSamples(ctx, name, start, chartProbeLimit); err != nil {
		return err
	}
	if ch.stats != nil {
		if in.Calls, err = ch.stats.CallTimings(ctx, ch.scope, name, start, chartCallLimit); err != nil {
			return err
		}
	}
	return ch.render(c, views.DrawerHistory(views.NewDrawerHistoryProps(in)))
}

// callsChart answers the calls chart for the server and source filters in
// the query: nothing (which removes the slot) when calls are not counted.
func (ch *charts) callsChart(c echo.Context) error {
	if ch.stats == nil {
		return ch.render(c, templ.NopComponent)
	}
	q := c.QueryParams()
	f := views.ParseCallsFilter(q)
	scope := views.CallsFilter{Server: f.Server, Source: f.Source, State: f.State}
	now := ch.now()
	since, until := views.CallsChartWindow(now)
	rows, err := ch.stats.CallsPerMinute(c.Request().Context(), ch.scope, since, until, scope.Domain(0))
	if err != nil {
		return err
	}
	p := views.NewCallsChartProps(rows, now, scope, PathDashboard)
	p.ReloadURL = scope.URL(PathUICallsChart)
	return ch.render(c, views.CallsChart(p))
}

// render writes a fragment in the person's language, buffered so a
// failing template never leaves half a picture.
func (ch *charts) render(c echo.Context, comp templ.Component) error {
	ctx := ch.prefs.resolve(c).context(c.Request().Context())
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return fmt.Errorf("render chart: %w", err)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(http.StatusOK, buf.Bytes())
}
