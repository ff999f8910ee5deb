package handlers

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// noStats is a CallStats that counts nothing; the watch only needs one.
type noStats struct{}

func (noStats) CallsPerMinute(context.Context, domain.Scope, time.Time, time.Time, domain.InvocationFilter) ([]domain.MinuteOutcomes, error) {
	return nil, nil
}

func (noStats) CallTimings(context.Context, domain.Scope, string, time.Time, int) ([]domain.CallTiming, error) {
	return nil, nil
}

func TestChartWatchTellsTheCallsChartOncePerSecond(t *testing.T) {
	w := &chartWatch{ch: &charts{stats: noStats{}}, unfinished: map[string]struct{}{}}
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	running := domain.Invocation{ID: "a", Status: domain.InvocationRunning}
	done := domain.Invocation{ID: "a", Status: domain.InvocationSuccess, EndedAt: t0}
	steps := []struct {
		name string
		invs []domain.Invocation
		at   time.Time
		want bool
	}{
		{"a-call-starts", []domain.Invocation{running}, t0, true},
		{"its-progress-is-no-change", []domain.Invocation{running}, t0.Add(2 * time.Second), false},
		{"it-ends", []domain.Invocation{done}, t0.Add(2500 * time.Millisecond), true},
		{"another-ends-within-the-second", []domain.Invocation{{ID: "b", EndedAt: t0}}, t0.Add(3 * time.Second), false},
		{"the-held-change-goes-out-with-the-next-batch", nil, t0.Add(3600 * time.Millisecond), true},
		{"nothing-more", nil, t0.Add(10 * time.Second), false},
	}
	for _, s := range steps {
		var out bytes.Buffer
		w.appendChanged(&out, nil, s.invs, s.at)
		if got := strings.Contains(out.String(), "event: "+views.CallsChartEvent+"\n"); got != s.want {
			t.Errorf("%s: signalled %v, want %v (%q)", s.name, got, s.want, out.String())
		}
	}
}
