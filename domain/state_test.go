package domain_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestTransitions(t *testing.T) {
	tests := []struct {
		name string
		from domain.Phase
		ev   domain.Event
		want domain.Phase
		ok   bool
	}{
		{"attach-starts-connecting", "", domain.EvConnect, domain.PhaseConnecting, true},
		{"attach-disabled-stays-stopped", "", domain.EvDisable, domain.PhaseStopped, true},
		{"handshake-succeeds", domain.PhaseConnecting, domain.EvConnected, domain.PhaseConnected, true},
		{"handshake-fails-schedules-retry", domain.PhaseConnecting, domain.EvFail, domain.PhaseWaiting, true},
		{"connected-crash-schedules-retry", domain.PhaseConnected, domain.EvFail, domain.PhaseWaiting, true},
		{"error-retry-starts-connecting", domain.PhaseWaiting, domain.EvConnect, domain.PhaseConnecting, true},
		{"error-retry-succeeds-clears-error", domain.PhaseConnecting, domain.EvConnected, domain.PhaseConnected, true},
		{"permanent-error-gives-up", domain.PhaseConnecting, domain.EvGiveUp, domain.PhaseExhausted, true},
		{"too-many-failures-auto-disable", domain.PhaseConnecting, domain.EvAutoDisable, domain.PhaseExhausted, true},
		{"manual-restart-after-permanent-error", domain.PhaseExhausted, domain.EvConnect, domain.PhaseConnecting, true},
		{"restart-connected", domain.PhaseConnected, domain.EvConnect, domain.PhaseConnecting, true},
		{"disable-connected", domain.PhaseConnected, domain.EvDisable, domain.PhaseStopped, true},
		{"disable-waiting-stops-retries", domain.PhaseWaiting, domain.EvDisable, domain.PhaseStopped, true},
		{"late-crash-auto-disables-while-waiting", domain.PhaseWaiting, domain.EvAutoDisable, domain.PhaseExhausted, true},
		{"enable-stopped-connects", domain.PhaseStopped, domain.EvEnable, domain.PhaseConnecting, true},
		{"enable-auto-disabled-connects", domain.PhaseExhausted, domain.EvEnable, domain.PhaseConnecting, true},
		{"dispose-is-terminal", domain.PhaseConnected, domain.EvDispose, domain.PhaseDisposed, true},
		{"disposed-never-reconnects", domain.PhaseDisposed, domain.EvConnect, "", false},
		{"stopped-never-retries", domain.PhaseStopped, domain.EvConnect, "", false},
		{"stopped-cannot-connect-by-itself", domain.PhaseStopped, domain.EvConnected, "", false},
		{"waiting-cannot-be-connected-without-attempt", domain.PhaseWaiting, domain.EvConnected, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := domain.Next(tt.from, tt.ev)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Next(%q, %q) = %q, %v; want %q, %v", tt.from, tt.ev, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestStateOf(t *testing.T) {
	tests := []struct {
		phase  domain.Phase
		reason domain.DisabledReason
		want   domain.State
	}{
		{domain.PhaseConnecting, "", domain.StateConnecting},
		{domain.PhaseConnected, "", domain.StateConnected},
		{domain.PhaseWaiting, "", domain.StateError},
		{domain.PhaseExhausted, "", domain.StateError},
		{domain.PhaseExhausted, domain.DisabledAuto, domain.StateDisabled},
		{domain.PhaseStopped, domain.DisabledManual, domain.StateDisabled},
		{domain.PhaseDisposed, "", domain.StateDisabled},
	}
	for _, tt := range tests {
		if got := domain.StateOf(tt.phase, tt.reason); got != tt.want {
			t.Errorf("StateOf(%q, %q) = %q, want %q", tt.phase, tt.reason, got, tt.want)
		}
	}
}
