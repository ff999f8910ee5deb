package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Runnable is the one place a person's call is judged: what it refuses,
// Start refuses with the same error and records nothing.
func TestRunnableJudgesWhatStartRefuses(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, ir *invRig)
		server  string
		tool    string
		is      error
		says    string
	}{
		{"runnable", nil, "srv", "echo", nil, ""},
		{"unknown-server", nil, "ghost", "echo", domain.ErrNotFound, "not found"},
		{"unknown-tool", nil, "srv", "nope", domain.ErrToolNotFound, `tool "nope" not found on server "srv"`},
		{"disabled", func(t *testing.T, ir *invRig) {
			if _, err := ir.fleet.Disable(context.Background(), "srv"); err != nil {
				t.Fatal(err)
			}
			ir.waitFor("srv", "disabled", func(s domain.Status) bool { return s.State == domain.StateDisabled })
		}, "srv", "echo", domain.ErrServerDisabled, "disabled"},
		// Lost and waiting to retry (the fake clock never fires it).
		{"disconnected", func(t *testing.T, ir *invRig) {
			ir.sess.Lose(&domain.ConnError{Category: domain.CategoryExited, ExitCode: 1, Err: domain.ErrProcessExited})
			ir.waitPhase("srv", domain.PhaseWaiting)
		}, "srv", "echo", domain.ErrNotConnected, `server "srv" is reconnecting`},
		// Not connected outranks an unknown tool: the tool list of a
		// server that is not there says nothing.
		{"disconnected-unknown-tool", func(t *testing.T, ir *invRig) {
			ir.sess.Lose(&domain.ConnError{Category: domain.CategoryExited, ExitCode: 1, Err: domain.ErrProcessExited})
			ir.waitPhase("srv", domain.PhaseWaiting)
		}, "srv", "nope", domain.ErrNotConnected, "reconnecting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ir := newInvRig(t, nil)
			if tt.prepare != nil {
				tt.prepare(t, ir)
			}
			tool, err := ir.svc.Runnable(tt.server, tt.tool)
			if tt.is == nil {
				if err != nil || tool.Name != tt.tool {
					t.Fatalf("Runnable: got %q, %v; want the tool", tool.Name, err)
				}
				return
			}
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("Runnable: got %v, want %v saying %q", err, tt.is, tt.says)
			}
			_, startErr := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: tt.server,
				Tool: tt.tool, Arguments: json.RawMessage(`{"message":"x"}`)})
			if startErr == nil || startErr.Error() != err.Error() {
				t.Errorf("Start: got %v, want Runnable's %v", startErr, err)
			}
			stored, serr := ir.store.Invocations(context.Background(), ir.scope, domain.InvocationFilter{Limit: 10})
			if serr != nil || len(stored) != 0 {
				t.Errorf("stored invocations: got %d (%v), want none", len(stored), serr)
			}
		})
	}
}
