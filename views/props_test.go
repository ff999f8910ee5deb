package views_test

import (
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestNewChipProps(t *testing.T) {
	tests := []struct {
		name  string
		in    domain.Status
		state string
		badge views.Message
	}{
		{"connected shows tools", domain.Status{State: domain.StateConnected, ToolCount: 12}, "connected",
			views.Message{ID: "ToolCount", Data: map[string]any{"Count": 12}}},
		{"first connect", domain.Status{State: domain.StateConnecting}, "connecting", views.Message{ID: "BadgeConnecting"}},
		{"reconnecting", domain.Status{State: domain.StateConnecting, Attempt: 2, Error: "x"}, "connecting", views.Message{ID: "BadgeReconnecting"}},
		{"error shows category", domain.Status{State: domain.StateError, ErrorCategory: domain.CategoryTimeout}, "error",
			views.Message{ID: "BadgeError", Data: map[string]any{"Category": "timeout"}}},
		{"manual disable", domain.Status{State: domain.StateDisabled, DisabledReason: domain.DisabledManual}, "disabled", views.Message{ID: "BadgeDisabled"}},
		{"auto disable", domain.Status{State: domain.StateDisabled, DisabledReason: domain.DisabledAuto}, "disabled", views.Message{ID: "BadgeAutoDisabled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := views.NewChipProps(tt.in)
			if got.State != tt.state || !reflect.DeepEqual(got.Badge, tt.badge) {
				t.Errorf("got state %q badge %+v, want %q %+v", got.State, got.Badge, tt.state, tt.badge)
			}
		})
	}
}

func TestBlockedChipSaysWhy(t *testing.T) {
	for reason, id := range map[domain.BlockedReason]string{
		domain.BlockedExcluded: "BadgeBlockedExcluded", domain.BlockedNotAllowed: "BadgeBlockedNotAllowed",
		domain.BlockedPending: "BadgeBlockedPending", domain.BlockedRejected: "BadgeBlockedRejected",
	} {
		got := views.NewChipProps(domain.Status{State: domain.StateDisabled, BlockedReason: reason})
		if got.Badge.ID != id || got.State != "disabled" {
			t.Errorf("%s: badge %s state %s, want %s", reason, got.Badge.ID, got.State, id)
		}
	}
}
