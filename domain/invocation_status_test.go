package domain_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestInvocationStatusTransitions(t *testing.T) {
	const (
		pending  = domain.InvocationPending
		awaiting = domain.InvocationAwaitingApproval
		running  = domain.InvocationRunning
		success  = domain.InvocationSuccess
		failed   = domain.InvocationError
		cancel   = domain.InvocationCancelled
		denied   = domain.InvocationDenied
	)
	tests := []struct {
		name     string
		from, to domain.InvocationStatus
		want     bool
	}{
		{"pending-held-for-approval", pending, awaiting, true},
		{"pending-sent", pending, running, true},
		{"pending-cancelled", pending, cancel, true},
		{"pending-cannot-be-denied-unheld", pending, denied, false},
		{"pending-cannot-jump-to-success", pending, success, false},
		{"approved-is-sent", awaiting, running, true},
		{"held-denied", awaiting, denied, true},
		{"held-cancelled-or-expired", awaiting, cancel, true},
		{"held-never-succeeds-unsent", awaiting, success, false},
		{"held-never-errors-unsent", awaiting, failed, false},
		{"running-cannot-go-back-to-held", running, awaiting, false},
		{"running-cannot-be-denied", running, denied, false},
		{"running-succeeds", running, success, true},
		{"denied-is-final", denied, running, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.from.CanBecome(tt.to); got != tt.want {
				t.Errorf("%s -> %s: got %v, want %v", tt.from, tt.to, got, tt.want)
			}
		})
	}
	for s, final := range map[domain.InvocationStatus]bool{pending: false, awaiting: false, running: false,
		success: true, failed: true, cancel: true, denied: true} {
		if s.Final() != final {
			t.Errorf("%s.Final(): got %v, want %v", s, s.Final(), final)
		}
	}
}
