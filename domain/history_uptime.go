package domain

import (
	"slices"
	"time"
)

// UptimeSlot is the width of one bar of an uptime strip and UptimeSlots
// the number of bars: a day in quarter hours, as status pages draw it.
const (
	UptimeSlot  = 15 * time.Minute
	UptimeSlots = 96
)

// UptimeBar is one slot of a server's uptime strip: the worst state the
// server was in during [Start, End) and the changes that happened in it,
// so a bar that looks fine never hides a short outage.
type UptimeBar struct {
	Start, End time.Time
	// Worst is the most severe state seen in the slot; empty where the
	// recorded history does not reach back that far.
	Worst State
	// Changes are the transitions inside the slot, oldest first.
	Changes []StateChange
}

// stateSeverity ranks states for a bar: an error outranks a (re)connect,
// which outranks a server a person switched off, which outranks a healthy
// one. Unknown states rank lowest.
func stateSeverity(s State) int {
	switch s {
	case StateError:
		return 4
	case StateConnecting:
		return 3
	case StateDisabled:
		return 2
	case StateConnected:
		return 1
	}
	return 0
}

// Known is the state c leaves the server in as far as anyone knows: none
// after a dispose, which records Switchboard stopping or the server being
// removed. Time while Switchboard was not running is unknown, never
// "disabled", so a laptop closed overnight does not lower a server's uptime.
func (c StateChange) Known() State {
	if c.Phase == PhaseDisposed {
		return ""
	}
	return c.State
}

// Worse returns the more severe of a and b.
func Worse(a, b State) State {
	if stateSeverity(b) > stateSeverity(a) {
		return b
	}
	return a
}

// UptimeWindow returns the strip's span for now: UptimeSlots quarter hours
// aligned to the clock, the last one holding now. Every real time zone is
// a whole number of quarter hours from UTC, so the slots start on the
// quarter hour in the zone of now too.
func UptimeWindow(now time.Time) (start, end time.Time) {
	end = now.Truncate(UptimeSlot).Add(UptimeSlot)
	return end.Add(-UptimeSlots * UptimeSlot), end
}

// UptimeBars splits the day before now into UptimeSlots bars. changes are
// oldest first, as History.StateChanges returns them; a change before the
// window is the state the window starts in, and changes after it are
// ignored.
func UptimeBars(changes []StateChange, now time.Time) []UptimeBar {
	start, _ := UptimeWindow(now)
	var cur State
	i := 0
	for ; i < len(changes) && changes[i].At.Before(start); i++ {
		cur = changes[i].Known()
	}
	bars := make([]UptimeBar, UptimeSlots)
	for b := range bars {
		bar := UptimeBar{Start: start.Add(time.Duration(b) * UptimeSlot)}
		bar.End = bar.Start.Add(UptimeSlot)
		bar.Worst = cur
		for ; i < len(changes) && changes[i].At.Before(bar.End); i++ {
			bar.Changes = append(bar.Changes, changes[i])
			bar.Worst = Worse(bar.Worst, changes[i].Known())
			cur = changes[i].Known()
		}
		bars[b] = bar
	}
	return bars
}

// StateDurations adds up how long the server spent in each state between
// from and to, counting only time the history covers: before the first
// known change the state is unknown and counted nowhere.
func StateDurations(changes []StateChange, from, to time.Time) map[State]time.Duration {
	out := map[State]time.Duration{}
	var cur State
	at := from
	for _, c := range changes {
		if !c.At.After(from) {
			cur = c.Known()
			continue
		}
		if !c.At.Before(to) {
			break
		}
		if cur != "" {
			out[cur] += c.At.Sub(at)
		}
		cur, at = c.Known(), c.At
	}
	if cur != "" && to.After(at) {
		out[cur] += to.Sub(at)
	}
	return out
}

// LatencyStats sums up a set of round trips for the sparkline's text.
type LatencyStats struct {
	Count            int
	P50, P95         time.Duration
	Fastest, Slowest time.Duration
}

// NewLatencyStats computes the stats of samples; the zero value for none.
func NewLatencyStats(samples []time.Duration) LatencyStats {
	if len(samples) == 0 {
		return LatencyStats{}
	}
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	return LatencyStats{
		Count:   len(sorted),
		P50:     percentileSorted(sorted, 50),
		P95:     percentileSorted(sorted, 95),
		Fastest: sorted[0],
		Slowest: sorted[len(sorted)-1],
	}
}

// Percentile returns the p-th percentile (0 < p <= 100) of samples by the
// nearest-rank method: always one of the samples, never an interpolation
// a reader could not find in the data. Zero for no samples.
func Percentile(samples []time.Duration, p float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	return percentileSorted(sorted, p)
}

func percentileSorted(sorted []time.Duration, p float64) time.Duration {
	n := len(sorted)
	// rank = ceil(p/100 * n), computed in integers to avoid 0.95*20 = 19.000000000000004.
	rank := int((int64(p*1000)*int64(n) + 99999) / 100000)
	rank = min(max(rank, 1), n)
	return sorted[rank-1]
}

// ProbeLatencies returns the samples' round trips, in their order.
func ProbeLatencies(samples []ProbeSample) []time.Duration {
	out := make([]time.Duration, len(samples))
	for i, s := range samples {
		out[i] = s.Latency
	}
	return out
}
