package views

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestSparkPath(t *testing.T) {
	gap := math.NaN()
	tests := []struct {
		name   string
		values []float64
		want   string
	}{
		{"a-line-scaled-to-the-largest", []float64{0, 5, 10}, "M1.7 7 L5 5 L8.3 3"},
		{"a-gap-breaks-the-line", []float64{10, 10, gap, 10, 10}, "M1 3 L3 3 M7 3 L9 3"},
		{"a-lone-point-is-a-dot", []float64{gap, 10, gap}, "M5 3 h0.5"},
		{"a-lone-last-point-is-a-dot", []float64{10, gap, 10}, "M1.7 3 h0.5 M8.3 3 h0.5"},
		{"all-zero-sits-on-the-floor", []float64{0, 0}, "M2.5 7 L7.5 7"},
		{"nothing-draws-nothing", []float64{gap, gap}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sparkPath(tt.values, 10, 10); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUptimeSummaryNeverRoundsUpToPerfect(t *testing.T) {
	tests := []struct {
		name      string
		durations map[domain.State]time.Duration
		want      Message
	}{
		{"nothing-recorded", nil, Message{ID: "ChartUptimeNoData"}},
		{"a-minute-down-in-a-day-is-not-100",
			map[domain.State]time.Duration{domain.StateConnected: 24*time.Hour - time.Minute, domain.StateError: time.Minute},
			Message{ID: "ChartUptimeSummary", Data: map[string]any{"Percent": Decimal{Value: 99.9, Digits: 1, Upto: true}}}},
		{"all-connected", map[domain.State]time.Duration{domain.StateConnected: time.Hour},
			Message{ID: "ChartUptimeSummary", Data: map[string]any{"Percent": Decimal{Value: 100, Digits: 1, Upto: true}}}},
		{"never-connected", map[domain.State]time.Duration{domain.StateDisabled: time.Hour},
			Message{ID: "ChartUptimeSummary", Data: map[string]any{"Percent": Decimal{Value: 0, Digits: 1, Upto: true}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := uptimeSummary(tt.durations)
			if got.ID != tt.want.ID || fmt.Sprint(got.Data) != fmt.Sprint(tt.want.Data) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
