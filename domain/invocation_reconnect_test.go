package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// startLimit is the test server's startTimeoutSeconds: how long a gateway
// call waits for it. No other timer of the rig has this length while the
// server waits for its retry.
const startLimit = 7 * time.Second

// newReconnectRig is a fleet whose server "srv" was connected and has just
// lost its connection: it waits for its first retry.
func newReconnectRig(t *testing.T) (*invRig, domain.Status) {
	t.Helper()
	r := newRig(t, nil)
	cfg := server("srv")
	cfg.StartTimeout = startLimit
	r.attach(cfg)
	sess := domaintest.NewSession(domain.Capabilities{Tools: []domain.Tool{{Name: "echo"}}})
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("srv", domain.PhaseConnected)
	ir := &invRig{rig: r, sess: sess, store: domaintest.NewInvocationStore(), scope: domain.Scope{User: "local", Workspace: "/w"}}
	ir.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: r.fleet, Catalog: r.fleet, Store: ir.store, Clock: r.clock})
	t.Cleanup(func() { _ = ir.svc.Close(context.Background()) })
	sess.Lose(transient("connection reset"))
	st := r.waitPhase("srv", domain.PhaseWaiting)
	if !st.Retryable || st.Delay == startLimit {
		t.Fatalf("waiting snapshot %+v: want a retryable failure with a retry delay other than %s", st, startLimit)
	}
	return ir, st
}

type reconnectOutcome struct {
	inv domain.Invocation
	err error
}

func (ir *invRig) callAsync(req domain.CallRequest) <-chan reconnectOutcome {
	out := make(chan reconnectOutcome, 1)
	go func() {
		inv, err := ir.svc.Call(context.Background(), req)
		out <- reconnectOutcome{inv, err}
	}()
	return out
}

func receive(t *testing.T, ch <-chan reconnectOutcome) reconnectOutcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(10 * time.Second): // only stops a broken test
		t.Fatal("the call never returned")
		return reconnectOutcome{}
	}
}

func reconnectCall() domain.CallRequest {
	return domain.CallRequest{Scope: domain.Scope{User: "local", Workspace: "/w"}, Server: "srv", Tool: "echo",
		Source: domain.SourceGateway, Forwarded: true, Client: domain.ClientIdentity{Name: "claude-code"}}
}

func TestGatewayCallWaitsForReconnectThenRuns(t *testing.T) {
	ir, st := newReconnectRig(t)
	out := ir.callAsync(reconnectCall())
	ir.clock.WaitForTimer(t, startLimit) // the call now waits for the server
	ir.clock.Advance(st.Delay)
	ir.waitPhase("srv", domain.PhaseConnecting)
	again := domaintest.NewSession(domain.Capabilities{Tools: []domain.Tool{{Name: "echo"}}})
	again.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"text","text":"back"}]}`), nil
	})
	ir.conn.Next(t).Succeed(again)
	o := receive(t, out)
	if o.err != nil || o.inv.Status != domain.InvocationSuccess || !strings.Contains(string(o.inv.Result), "back") {
		t.Fatalf("got %s %s, %v; want success from the reconnected server", o.inv.Status, o.inv.Result, o.err)
	}
}

func TestGatewayCallToReconnectingServerFailsAfterItsLimit(t *testing.T) {
	ir, _ := newReconnectRig(t)
	out := ir.callAsync(reconnectCall())
	ir.clock.WaitForTimer(t, startLimit)
	ir.clock.Advance(startLimit) // the retry starts too, and hangs
	o := receive(t, out)
	var nr *domain.NotReadyError
	if !errors.As(o.err, &nr) || !errors.Is(o.err, domain.ErrNotConnected) {
		t.Fatalf("got %v, want *NotReadyError that is ErrNotConnected", o.err)
	}
	if msg := o.err.Error(); !strings.HasPrefix(msg, `server "srv" is reconnecting (attempt 2)`) || !strings.HasSuffix(msg, "try again") {
		t.Errorf("got %q, want it to name the reconnect and its attempt", msg)
	}
	if invs, _ := ir.store.Invocations(context.Background(), ir.scope, domain.InvocationFilter{}); len(invs) != 0 {
		t.Errorf("got %d invocations recorded, want none for a call that never started", len(invs))
	}
}

func TestPersonsCallToReconnectingServerIsNotHeld(t *testing.T) {
	for _, source := range []string{domain.SourceDashboard, domain.SourceAPI} {
		t.Run(source, func(t *testing.T) {
			ir, _ := newReconnectRig(t)
			req := reconnectCall()
			req.Source, req.Forwarded, req.Client = source, false, domain.ClientIdentity{}
			// Refused at once, as Runnable refuses it, with nothing recorded:
			// the dashboard's form and the API answer alike.
			o := receive(t, ir.callAsync(req))
			if !errors.Is(o.err, domain.ErrNotConnected) || !strings.Contains(o.err.Error(), "reconnecting") {
				t.Errorf("got %s, %v; want a refusal at once saying the server is reconnecting", o.inv.Status, o.err)
			}
			if invs, _ := ir.store.Invocations(context.Background(), ir.scope, domain.InvocationFilter{}); len(invs) != 0 {
				t.Errorf("got %d invocations recorded, want none", len(invs))
			}
		})
	}
}

func TestNotReadyErrorNamesTheState(t *testing.T) {
	tests := []struct {
		name string
		st   domain.Status
		want string
	}{
		{"waiting-after-one-failure", domain.Status{State: domain.StateError, Phase: domain.PhaseWaiting, Retryable: true, Attempt: 1},
			`server "x" is reconnecting (attempt 2); try again`},
		{"restart", domain.Status{State: domain.StateConnecting, Phase: domain.PhaseConnecting, ConnectedAt: epoch},
			`server "x" is reconnecting; try again`},
		{"first-connect", domain.Status{State: domain.StateConnecting, Phase: domain.PhaseConnecting},
			`server "x" is connecting; try again`},
		{"gave-up", domain.Status{State: domain.StateError, Phase: domain.PhaseExhausted, Error: "401 unauthorized"},
			`server "x" is error: 401 unauthorized`},
		{"sign-in-needed", domain.Status{State: domain.StateError, Phase: domain.PhaseExhausted, Error: "sign_in: 401", ErrorCategory: domain.CategorySignIn},
			`server "x" needs a person to sign in: open Switchboard's dashboard and choose Sign in`},
		{"auto-disabled", domain.Status{State: domain.StateDisabled, Phase: domain.PhaseExhausted, DisabledReason: domain.DisabledAuto, Retryable: true},
			`server "x" is disabled`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (&domain.NotReadyError{Server: "x", Status: tt.st}).Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
