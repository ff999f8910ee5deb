package views

import (
	"math"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// LatencySparklineProps is a server's round trips over the strip's day as
// two sparklines, probes and calls, each on its own scale (a call may take
// seconds where a probe takes milliseconds) and each with its p50 and p95
// in words beside it.
type LatencySparklineProps struct {
	ID     string
	Series []SparkSeriesProps
}

// SparkSeriesProps is one line: the slowest sample of each quarter hour.
type SparkSeriesProps struct {
	Kind    string // probes or calls: the CSS class and the ids
	LabelID string
	Path    string // empty when there are no samples
	Stats   Message
	Count   Message
	Desc    Message
	TitleID string
	DescID  string
}

// NewLatencySparklineProps draws probes and the finished calls among
// calls over the window domain.UptimeWindow(now) for the server named key.
// Calls that never reached the server (denied, cancelled before an
// answer) have no round trip and are left out.
func NewLatencySparklineProps(key string, probes []domain.ProbeSample, calls []domain.CallTiming, now time.Time) LatencySparklineProps {
	start, _ := domain.UptimeWindow(now)
	var probeAt, callAt []time.Time
	var probeD, callD []time.Duration
	for _, s := range probes {
		probeAt, probeD = append(probeAt, s.At), append(probeD, s.Latency)
	}
	for _, inv := range calls {
		if inv.EndedAt.IsZero() || inv.StartedAt.IsZero() ||
			(inv.Status != domain.InvocationSuccess && inv.Status != domain.InvocationError) {
			continue
		}
		callAt, callD = append(callAt, inv.StartedAt), append(callD, inv.EndedAt.Sub(inv.StartedAt))
	}
	id := "latency-" + key
	return LatencySparklineProps{ID: id, Series: []SparkSeriesProps{
		newSparkSeries(id, "probes", "ChartSeriesProbes", "ChartLatencyNoProbes", "ChartLatencyProbesDesc", "ChartSamples", start, probeAt, probeD),
		newSparkSeries(id, "calls", "ChartSeriesCalls", "ChartLatencyNoCalls", "ChartLatencyCallsDesc", "ChartCallCount", start, callAt, callD),
	}}
}

func newSparkSeries(id, kind, label, none, desc, count string, start time.Time, at []time.Time, d []time.Duration) SparkSeriesProps {
	p := SparkSeriesProps{Kind: kind, LabelID: label, TitleID: id + "-" + kind + "-t", DescID: id + "-" + kind + "-d"}
	var in []time.Duration
	slots := make([]float64, domain.UptimeSlots)
	for i := range slots {
		slots[i] = math.NaN()
	}
	for i, t := range at {
		slot := int(t.Sub(start) / domain.UptimeSlot)
		if t.Before(start) || slot >= domain.UptimeSlots {
			continue
		}
		in = append(in, d[i])
		ms := float64(d[i].Microseconds()) / 1000
		if math.IsNaN(slots[slot]) || ms > slots[slot] {
			slots[slot] = ms
		}
	}
	st := domain.NewLatencyStats(in)
	if st.Count == 0 {
		p.Stats = Message{ID: none}
		return p
	}
	p.Path = sparkPath(slots, sparkWidth, sparkHeight)
	p.Stats = Message{ID: "ChartLatencyStats", Data: map[string]any{"P50": msText(st.P50), "P95": msText(st.P95)}}
	p.Count = Message{ID: count, Data: map[string]any{"Count": st.Count}}
	p.Desc = Message{ID: desc, Data: map[string]any{"Min": msText(st.Fastest), "Max": msText(st.Slowest)}}
	return p
}

// TooltipSparkProps is the chip tooltip's line of the last probes.
type TooltipSparkProps struct {
	Path string // empty: no probes, nothing drawn
	Desc Message
}

// NewTooltipSparkProps draws the last probes (History.RecentProbes), one
// point each, oldest on the left.
func NewTooltipSparkProps(probes []domain.ProbeSample) TooltipSparkProps {
	if len(probes) == 0 {
		return TooltipSparkProps{}
	}
	values := make([]float64, len(probes))
	d := make([]time.Duration, len(probes))
	for i, s := range probes {
		values[i] = float64(s.Latency.Microseconds()) / 1000
		d[i] = s.Latency
	}
	st := domain.NewLatencyStats(d)
	return TooltipSparkProps{
		Path: sparkPath(values, tipSparkW, tipSparkH),
		Desc: Message{ID: "ChartTooltipProbesDesc", Data: map[string]any{
			"Min": msText(st.Fastest), "Max": msText(st.Slowest), "Last": msText(probes[len(probes)-1].Latency)}},
	}
}
