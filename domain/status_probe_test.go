package domain_test

import (
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestOnlyProbedSince(t *testing.T) {
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	prev := domain.Status{ServerName: "a", State: domain.StateConnected, ConnectedAt: at, LastSyncAt: at,
		ToolCount: 3, Latency: time.Millisecond, HasLatency: true, ProbedAt: at, Version: 7}
	tests := []struct {
		name   string
		change func(*domain.Status)
		want   bool
	}{
		{"same-snapshot-again", func(*domain.Status) {}, true},
		{"new-probe-latency-and-version", func(s *domain.Status) {
			s.Latency, s.ProbedAt, s.Version = 2*time.Millisecond, at.Add(30*time.Second), 9
		}, true},
		{"re-listed-after-list-changed", func(s *domain.Status) { s.LastSyncAt = at.Add(time.Second) }, false},
		{"tool-count-changed", func(s *domain.Status) { s.ToolCount = 4 }, false},
		{"state-changed", func(s *domain.Status) { s.State = domain.StateError }, false},
		{"disposed", func(s *domain.Status) { s.Phase = domain.PhaseDisposed }, false},
		{"reconnected", func(s *domain.Status) { s.ConnectedAt = at.Add(time.Minute) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := prev
			tt.change(&next)
			if got := next.OnlyProbedSince(prev); got != tt.want {
				t.Errorf("OnlyProbedSince = %v, want %v", got, tt.want)
			}
		})
	}
}
