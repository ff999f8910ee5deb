package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestUnknownToolNamesToolAndServer(t *testing.T) {
	ir := newInvRig(t, nil)
	_, err := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "no-such-tool"})
	if want := `tool "no-such-tool" not found on server "srv"`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if !errors.Is(err, domain.ErrToolNotFound) || !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("errors.Is(%v, ErrToolNotFound and ErrNotFound) = false, want true", err)
	}
}

// A call to a server that cannot take it is refused before anything is
// stored, published or sent, and the refusal says the server's state.
func TestDisabledOrBlockedServerRefusesCallUnrecorded(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, ir *invRig)
		want    string
		is      error
	}{
		{"disabled-by-a-person", func(t *testing.T, ir *invRig) {
			if _, err := ir.fleet.Disable(context.Background(), "srv"); err != nil {
				t.Fatal(err)
			}
		}, `server "srv" is disabled: manual`, domain.ErrServerDisabled},
		{"blocked-by-gating", func(t *testing.T, ir *invRig) {
			cfg := server("srv")
			cfg.Blocked = domain.BlockedExcluded
			if _, err := ir.fleet.Apply(context.Background(), []domain.ServerConfig{cfg}); err != nil {
				t.Fatal(err)
			}
		}, `server "srv" is blocked: excluded`, domain.ErrBlocked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ir := newInvRig(t, nil)
			var sent atomic.Int32
			ir.sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
				sent.Add(1)
				return json.RawMessage(`{"content":[]}`), nil
			})
			tt.prepare(t, ir)
			ir.waitFor("srv", "disabled", func(s domain.Status) bool { return s.State == domain.StateDisabled })
			_, err := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "echo",
				Arguments: json.RawMessage(`{"message":"x"}`)})
			if err == nil || err.Error() != tt.want || !errors.Is(err, tt.is) {
				t.Errorf("Start: got %v, want %q (%v)", err, tt.want, tt.is)
			}
			stored, err := ir.store.Invocations(context.Background(), ir.scope, domain.InvocationFilter{Limit: 10})
			if err != nil || len(stored) != 0 {
				t.Errorf("stored invocations: got %d (%v), want none", len(stored), err)
			}
			if n := sent.Load(); n != 0 {
				t.Errorf("calls sent: got %d, want none", n)
			}
		})
	}
}

func TestSchemaErrorAtTheRootSaysRoot(t *testing.T) {
	tests := []struct {
		name string
		err  *domain.SchemaError
		want string
	}{
		{"root", &domain.SchemaError{Violations: []domain.Violation{{Pointer: "", Message: "missing property 'scale'"}}},
			"does not match its schema at (root): missing property 'scale'"},
		{"member", &domain.SchemaError{Violations: []domain.Violation{{Pointer: "/limit", Message: "want integer"}}},
			"does not match its schema at /limit: want integer"},
		{"none", &domain.SchemaError{}, "does not match its schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
