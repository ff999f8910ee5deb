package handlers

import (
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestBelowFloorKeepsOlderRowsWhereTheyAre: once the stream sent a full
// page with more left for "Older calls", a change of an unknown call at or
// below its oldest row replaces that row in place; a newer one is
// inserted at the top; with no floor everything unknown is new.
func TestBelowFloorKeepsOlderRowsWhereTheyAre(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	floor := domain.Invocation{ID: "m", StartedAt: t0}
	p := &pageCards{floor: &floor}
	tests := []struct {
		name string
		inv  domain.Invocation
		want bool
	}{
		{"older", domain.Invocation{ID: "z", StartedAt: t0.Add(-time.Second)}, true},
		{"same-start-lower-id", domain.Invocation{ID: "a", StartedAt: t0}, true},
		{"the-floor-itself", domain.Invocation{ID: "m", StartedAt: t0}, true},
		{"same-start-higher-id", domain.Invocation{ID: "n", StartedAt: t0}, false},
		{"newer", domain.Invocation{ID: "a", StartedAt: t0.Add(time.Millisecond)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.belowFloor(tt.inv); got != tt.want {
				t.Errorf("belowFloor: got %v, want %v", got, tt.want)
			}
		})
	}
	if (&pageCards{}).belowFloor(domain.Invocation{ID: "z", StartedAt: t0.Add(-time.Hour)}) {
		t.Error("no floor: got below, want every unknown call treated as new")
	}
}
