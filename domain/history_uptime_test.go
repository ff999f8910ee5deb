package domain_test

import (
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// uptimeNow is the fixed instant the uptime tests look back from: 10:07,
// so the last bar is 10:00–10:15 and the first 10:15 the day before.
var uptimeNow = time.Date(2026, 11, 30, 10, 7, 30, 0, time.UTC)

func change(at time.Time, st domain.State) domain.StateChange {
	return domain.StateChange{Server: "alpha", At: at, State: st}
}

func TestUptimeWindowAlignsToQuarterHours(t *testing.T) {
	tests := []struct {
		name      string
		now       time.Time
		wantStart time.Time
	}{
		{"mid-slot", uptimeNow, time.Date(2026, 11, 29, 10, 15, 0, 0, time.UTC)},
		{"on-the-boundary-starts-a-new-slot", time.Date(2026, 11, 30, 10, 15, 0, 0, time.UTC), time.Date(2026, 11, 29, 10, 30, 0, 0, time.UTC)},
		{"nepal-is-a-quarter-hour-zone", time.Date(2026, 11, 30, 10, 7, 0, 0, time.FixedZone("NPT", 5*3600+45*60)), time.Date(2026, 11, 29, 10, 15, 0, 0, time.FixedZone("NPT", 5*3600+45*60))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, end := domain.UptimeWindow(tt.now)
			if !start.Equal(tt.wantStart) {
				t.Errorf("start: got %v, want %v", start, tt.wantStart)
			}
			if got := end.Sub(start); got != 24*time.Hour {
				t.Errorf("span: got %v, want 24h", got)
			}
			if !tt.now.Before(end) || tt.now.Before(end.Add(-domain.UptimeSlot)) {
				t.Errorf("now %v is not in the last slot ending %v", tt.now, end)
			}
		})
	}
}

func TestUptimeBars(t *testing.T) {
	start, _ := domain.UptimeWindow(uptimeNow)
	slot := func(i int) time.Time { return start.Add(time.Duration(i) * domain.UptimeSlot) }
	tests := []struct {
		name    string
		changes []domain.StateChange
		// want maps bar index to its worst state; bars not listed want wantRest.
		want     map[int]domain.State
		wantRest domain.State
		// wantChanges maps bar index to how many changes it lists.
		wantChanges map[int]int
	}{
		{"no-history-is-unknown-everywhere", nil, nil, "", nil},
		{"connected-before-the-window-fills-it",
			[]domain.StateChange{change(start.Add(-time.Hour), domain.StateConnected)},
			nil, domain.StateConnected, nil},
		{"history-starting-mid-window-leaves-earlier-bars-unknown",
			[]domain.StateChange{change(slot(90).Add(time.Minute), domain.StateConnecting), change(slot(90).Add(2*time.Minute), domain.StateConnected)},
			map[int]domain.State{90: domain.StateConnecting, 91: domain.StateConnected, 92: domain.StateConnected, 93: domain.StateConnected, 94: domain.StateConnected, 95: domain.StateConnected},
			"", map[int]int{90: 2}},
		{"a-short-error-marks-its-bar-worst",
			[]domain.StateChange{
				change(start.Add(-time.Minute), domain.StateConnected),
				change(slot(10).Add(time.Second), domain.StateError),
				change(slot(10).Add(2*time.Second), domain.StateConnecting),
				change(slot(10).Add(3*time.Second), domain.StateConnected),
			},
			map[int]domain.State{10: domain.StateError}, domain.StateConnected, map[int]int{10: 3}},
		{"an-outage-spanning-bars-colours-each",
			[]domain.StateChange{
				change(start.Add(-time.Minute), domain.StateConnected),
				change(slot(20).Add(14*time.Minute), domain.StateError),
				change(slot(23).Add(time.Minute), domain.StateConnected),
			},
			map[int]domain.State{20: domain.StateError, 21: domain.StateError, 22: domain.StateError, 23: domain.StateError},
			domain.StateConnected, map[int]int{20: 1, 23: 1}},
		{"disabled-outranks-connected-but-not-connecting",
			[]domain.StateChange{
				change(start.Add(-time.Minute), domain.StateConnected),
				change(slot(5), domain.StateDisabled),
				change(slot(6).Add(time.Minute), domain.StateConnecting),
				change(slot(6).Add(2*time.Minute), domain.StateConnected),
			},
			map[int]domain.State{5: domain.StateDisabled, 6: domain.StateConnecting},
			domain.StateConnected, map[int]int{5: 1, 6: 2}},
		{"a-change-on-the-boundary-belongs-to-the-later-bar",
			[]domain.StateChange{change(start.Add(-time.Minute), domain.StateConnected), change(slot(40), domain.StateError)},
			func() map[int]domain.State {
				m := map[int]domain.State{}
				for i := 40; i < domain.UptimeSlots; i++ {
					m[i] = domain.StateError
				}
				return m
			}(), domain.StateConnected, map[int]int{40: 1}},
		{"changes-after-now-are-ignored",
			[]domain.StateChange{change(start.Add(-time.Minute), domain.StateConnected), change(uptimeNow.Add(time.Hour), domain.StateError)},
			nil, domain.StateConnected, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bars := domain.UptimeBars(tt.changes, uptimeNow)
			if len(bars) != domain.UptimeSlots {
				t.Fatalf("bars: got %d, want %d", len(bars), domain.UptimeSlots)
			}
			for i, b := range bars {
				want, ok := tt.want[i]
				if !ok {
					want = tt.wantRest
				}
				if b.Worst != want {
					t.Errorf("bar %d worst: got %q, want %q", i, b.Worst, want)
				}
				if got := len(b.Changes); got != tt.wantChanges[i] {
					t.Errorf("bar %d changes: got %d, want %d", i, got, tt.wantChanges[i])
				}
				if !b.Start.Equal(slot(i)) || b.End.Sub(b.Start) != domain.UptimeSlot {
					t.Errorf("bar %d span: got %v–%v", i, b.Start, b.End)
				}
			}
		})
	}
}

func TestStateDurations(t *testing.T) {
	from := uptimeNow.Add(-24 * time.Hour)
	tests := []struct {
		name    string
		changes []domain.StateChange
		want    map[domain.State]time.Duration
	}{
		{"nothing-known", nil, map[domain.State]time.Duration{}},
		{"connected-throughout",
			[]domain.StateChange{change(from.Add(-time.Hour), domain.StateConnected)},
			map[domain.State]time.Duration{domain.StateConnected: 24 * time.Hour}},
		{"known-only-from-the-first-change",
			[]domain.StateChange{change(uptimeNow.Add(-2*time.Hour), domain.StateConnected), change(uptimeNow.Add(-time.Hour), domain.StateError)},
			map[domain.State]time.Duration{domain.StateConnected: time.Hour, domain.StateError: time.Hour}},
		{"a-change-exactly-at-from-starts-the-window",
			[]domain.StateChange{change(from, domain.StateError), change(from.Add(time.Hour), domain.StateConnected)},
			map[domain.State]time.Duration{domain.StateError: time.Hour, domain.StateConnected: 23 * time.Hour}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := domain.StateDurations(tt.changes, from, uptimeNow)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for st, d := range tt.want {
				if got[st] != d {
					t.Errorf("%s: got %v, want %v", st, got[st], d)
				}
			}
		})
	}
}

func ms(n ...int) []time.Duration {
	out := make([]time.Duration, len(n))
	for i, v := range n {
		out[i] = time.Duration(v) * time.Millisecond
	}
	return out
}

func TestPercentile(t *testing.T) {
	twenty := ms(20, 1, 19, 2, 18, 3, 17, 4, 16, 5, 15, 6, 14, 7, 13, 8, 12, 9, 11, 10)
	tests := []struct {
		name    string
		samples []time.Duration
		p       float64
		want    time.Duration
	}{
		{"none-is-zero", nil, 50, 0},
		{"one-sample-is-every-percentile", ms(7), 95, 7 * time.Millisecond},
		{"median-of-odd-count", ms(30, 10, 20), 50, 20 * time.Millisecond},
		{"median-of-even-count-is-the-lower-middle", ms(40, 10, 30, 20), 50, 20 * time.Millisecond},
		{"p95-of-twenty-is-the-nineteenth", twenty, 95, 19 * time.Millisecond},
		{"p95-of-two-is-the-larger", ms(5, 500), 95, 500 * time.Millisecond},
		{"p100-is-the-slowest", twenty, 100, 20 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := domain.Percentile(tt.samples, tt.p); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewLatencyStatsLeavesItsInputAlone(t *testing.T) {
	in := ms(30, 10, 20)
	got := domain.NewLatencyStats(in)
	want := domain.LatencyStats{Count: 3, P50: 20 * time.Millisecond, P95: 30 * time.Millisecond, Fastest: 10 * time.Millisecond, Slowest: 30 * time.Millisecond}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if in[0] != 30*time.Millisecond {
		t.Errorf("input reordered: %v", in)
	}
	if (domain.NewLatencyStats(nil) != domain.LatencyStats{}) {
		t.Error("no samples: want the zero value")
	}
}

// TestTimeSwitchboardWasStoppedIsUnknown: a dispose (Switchboard stopping,
// recorded as disabled) leaves the state unknown until the next change, so
// a night with the laptop closed paints no "disabled" bars and counts
// nowhere in the uptime.
func TestTimeSwitchboardWasStoppedIsUnknown(t *testing.T) {
	start, _ := domain.UptimeWindow(uptimeNow)
	stopped := domain.StateChange{Server: "alpha", At: start.Add(time.Hour), State: domain.StateDisabled, Phase: domain.PhaseDisposed}
	changes := []domain.StateChange{
		change(start.Add(-time.Hour), domain.StateConnected),
		stopped,
		change(start.Add(10*time.Hour), domain.StateConnected),
	}
	bars := domain.UptimeBars(changes, uptimeNow)
	if got := bars[0].Worst; got != domain.StateConnected {
		t.Errorf("bar before the stop: got %q, want connected", got)
	}
	if got := bars[4].Worst; got != domain.StateConnected {
		t.Errorf("bar holding the stop: got %q, want connected (the time after it is unknown)", got)
	}
	for _, b := range bars[5:40] {
		if b.Worst != "" {
			t.Fatalf("bar at %v while stopped: got %q, want unknown", b.Start, b.Worst)
		}
	}
	if got := bars[40].Worst; got != domain.StateConnected {
		t.Errorf("bar after the restart: got %q, want connected", got)
	}
	d := domain.StateDurations(changes, start, uptimeNow)
	if d[domain.StateDisabled] != 0 {
		t.Errorf("disabled time: got %v, want none while Switchboard was stopped", d[domain.StateDisabled])
	}
	if want := time.Hour + uptimeNow.Sub(start.Add(10*time.Hour)); d[domain.StateConnected] != want {
		t.Errorf("connected time: got %v, want %v", d[domain.StateConnected], want)
	}
}
