package views

import (
	"context"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
)

// CallsChartMinutes is how many minutes the calls chart shows.
const CallsChartMinutes = 60

// CallsChartProps is the calls-per-minute chart above the call list: the
// last hour's minutes as bars stacked by outcome, each bar a link that
// filters the list to its minute. The zero value draws nothing, for a page
// without stored calls.
type CallsChartProps struct {
	// Loaded is set once the bars are drawn; before that the chart is an
	// empty slot that loads itself from ReloadURL.
	Loaded bool
	// ReloadURL redraws the chart with the page's filters, when the page
	// loads, when its event stream says calls changed (CallsChartEvent)
	// and every minute as the hour moves on.
	ReloadURL string
	Bars      []CallsBarProps
	Total     int
	Summary   Message
	Peak      *Message
	Legend    []CallsOutcomeProps
	// Rows are the minutes with calls, for the table equivalent.
	Rows []CallsBarProps
}

// CallsBarProps is one minute.
type CallsBarProps struct {
	X, W     string
	Time     string // "14:03"
	Total    int
	URL      string // the list filtered to this minute; empty for a minute without calls
	Segments []CallsSegmentProps
}

// CallsSegmentProps is one outcome's part of a bar.
type CallsSegmentProps struct {
	Outcome string // success, error, cancelled, denied, other: the CSS class
	LabelID string
	Count   int
	Y, H    string
	URL     string // the list filtered to this minute and outcome
}

// CallsOutcomeProps is a legend entry.
type CallsOutcomeProps struct {
	Outcome string
	LabelID string
}

// callsOutcomes is the stacking order, bottom up, with each outcome's
// status in the call list's filter ("" for the several statuses of calls
// not finished, which no single filter names).
var callsOutcomes = []struct {
	outcome, labelID, status string
	count                    func(domain.MinuteOutcomes) int
}{
	{"success", "ChartOutcomeSuccess", string(domain.InvocationSuccess), func(m domain.MinuteOutcomes) int { return m.Success }},
	{"error", "ChartOutcomeError", string(domain.InvocationError), func(m domain.MinuteOutcomes) int { return m.Error }},
	{"cancelled", "ChartOutcomeCancelled", string(domain.InvocationCancelled), func(m domain.MinuteOutcomes) int { return m.Cancelled }},
	{"denied", "ChartOutcomeDenied", string(domain.InvocationDenied), func(m domain.MinuteOutcomes) int { return m.Denied }},
	{"other", "ChartOutcomeOther", "", func(m domain.MinuteOutcomes) int { return m.Other }},
}

// CallsChartEvent names the page event that says stored calls changed.
// It carries no HTML: the chart asks for itself with its own filters.
const CallsChartEvent = "calls-chart"

// NewCallsChartSlot is the chart before its bars: an empty slot of the
// chart's size that loads them from reloadURL once the page is shown, so
// the page itself never waits for the count.
func NewCallsChartSlot(reloadURL string) CallsChartProps {
	return CallsChartProps{ReloadURL: reloadURL}
}

// reloadAttrs make the chart load and redraw itself; none without a URL.
func (p CallsChartProps) reloadAttrs() templ.Attributes {
	return reloadAttrs(p.ReloadURL, p.trigger())
}

// trigger is the chart's hx-trigger.
func (p CallsChartProps) trigger() string {
	t := "sse:" + CallsChartEvent + ", every 60s"
	if !p.Loaded {
		t = "load, " + t
	}
	return t
}

// CallsChartWindow is the hour the chart shows at now: whole minutes, the
// last one holding now.
func CallsChartWindow(now time.Time) (since, until time.Time) {
	until = now.Truncate(time.Minute).Add(time.Minute)
	return until.Add(-CallsChartMinutes * time.Minute), until
}

// NewCallsChartProps draws rows (CallStats.CallsPerMinute over
// CallsChartWindow(now), only minutes with calls) with times in now's
// zone. f is the list's filter: a bar keeps its server and source and
// narrows it to the minute (and a segment to the outcome); base is the
// page's path.
func NewCallsChartProps(rows []domain.MinuteOutcomes, now time.Time, f CallsFilter, base string) CallsChartProps {
	since, _ := CallsChartWindow(now)
	loc := now.Location()
	byMinute := map[int64]domain.MinuteOutcomes{}
	top := 1
	p := CallsChartProps{Loaded: true}
	for _, r := range rows {
		i := int64(r.Start.Sub(since) / time.Minute)
		if r.Start.Before(since) || i >= CallsChartMinutes {
			continue
		}
		byMinute[i] = r
		top = max(top, r.Total())
		p.Total += r.Total()
	}
	slot := float64(callsChartW) / CallsChartMinutes
	var peak domain.MinuteOutcomes
	for i := range int64(CallsChartMinutes) {
		start := since.Add(time.Duration(i) * time.Minute)
		b := CallsBarProps{
			X:    coord(float64(i)*slot + chartBarGap/2),
			W:    coord(slot - chartBarGap),
			Time: clockText(start, loc),
		}
		m, ok := byMinute[i]
		if ok && m.Total() > 0 {
			b.Total = m.Total()
			minute := f
			minute.Status, minute.From, minute.To = "", start, start.Add(time.Minute)
			b.URL = minute.URL(base)
			y := float64(callsChartH)
			for _, o := range callsOutcomes {
				n := o.count(m)
				if n == 0 {
					continue
				}
				h := float64(n) / float64(top) * (callsChartH - sparkPad)
				y -= h
				seg := CallsSegmentProps{Outcome: o.outcome, LabelID: o.labelID, Count: n, Y: coord(y), H: coord(h)}
				if o.status != "" {
					one := minute
					one.Status = o.status
					seg.URL = one.URL(base)
				}
				b.Segments = append(b.Segments, seg)
			}
			if m.Total() > peak.Total() {
				peak = m
				msg := Message{ID: "ChartCallsPeak", Data: map[string]any{"Time": Digits(b.Time), "N": b.Total}}
				p.Peak = &msg
			}
			p.Rows = append(p.Rows, b)
		}
		p.Bars = append(p.Bars, b)
	}
	if p.Total == 0 {
		p.Summary = Message{ID: "ChartCallsNone"}
	} else {
		p.Summary = Message{ID: "ChartCallsSummary", Data: map[string]any{"Count": p.Total}}
	}
	for _, o := range callsOutcomes {
		p.Legend = append(p.Legend, CallsOutcomeProps{Outcome: o.outcome, LabelID: o.labelID})
	}
	return p
}

// label is the bar link's accessible name: the minute, the count and
// each outcome's share, in the page's language.
func (b CallsBarProps) label(ctx context.Context) string {
	parts := make([]string, len(b.Segments))
	for i, s := range b.Segments {
		parts[i] = locales.T(ctx, "ChartCallsSegment", map[string]any{"Outcome": locales.T(ctx, s.LabelID, nil), "N": s.Count})
	}
	return locales.T(ctx, "ChartCallsBar", map[string]any{"Time": DigitsText(ctx, b.Time), "Count": b.Total, "Detail": strings.Join(parts, ", ")})
}

// segment returns the bar's part for outcome; a zero count when it has none.
func (b CallsBarProps) segment(outcome string) CallsSegmentProps {
	for _, s := range b.Segments {
		if s.Outcome == outcome {
			return s
		}
	}
	return CallsSegmentProps{Outcome: outcome}
}
