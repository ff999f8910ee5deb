package domain_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

const testHold = 45 * time.Second

// newHoldRig is an invocation service over server "srv" offering a
// destructive tool "rm" (asked about by default) and a plain tool "ls",
// with a policy store.
// holdRig is an invRig whose service has a clock of its own: advancing the
// fleet's would set off its keep-alive probes, which these tests do not
// answer.
type holdRig struct {
	*invRig
	clock *domaintest.Clock
}

func newHoldRig(t *testing.T) (*holdRig, *domaintest.PolicyStore, *atomic.Int32) {
	t.Helper()
	r := newRig(t, nil)
	cfg := server("srv")
	cfg.CallTimeout = time.Minute
	r.attach(cfg)
	sess := domaintest.NewSession(domain.Capabilities{Tools: []domain.Tool{
		{Name: "rm", Annotations: domain.Annotations{DestructiveHint: hint(true)}}, {Name: "ls"}}})
	sent := &atomic.Int32{}
	sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		sent.Add(1)
		return json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`), nil
	})
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("srv", domain.PhaseConnected)
	policies := domaintest.NewPolicyStore()
	clock := domaintest.NewClock(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	ir := &invRig{rig: r, sess: sess, store: domaintest.NewInvocationStore(), scope: domain.Scope{User: "local", Workspace: "/w"}}
	ir.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: r.fleet, Catalog: r.fleet, Store: ir.store,
		Clock: clock, Policies: domain.NewPolicies(policies), ApprovalTimeout: testHold})
	ir.feed = ir.svc.Feed().Subscribe(ir.scope)
	t.Cleanup(func() {
		ir.feed.Close()
		_ = ir.svc.Close(context.Background())
	})
	return &holdRig{invRig: ir, clock: clock}, policies, sent
}

func gatewayCall(ir *holdRig, tool, args string) domain.CallRequest {
	return domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: tool, Arguments: json.RawMessage(args),
		Source: domain.SourceGateway, Forwarded: true,
		Client: domain.ClientIdentity{Name: "Claude Code", Version: "1.2", Token: "laptop"}}
}

// waitStatus waits on the feed until id reaches status.
func (ir *invRig) waitStatus(t *testing.T, id string, status domain.InvocationStatus) domain.Invocation {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		batch, err := ir.feed.Next(ctx)
		if err != nil {
			t.Fatalf("invocation %s never became %s", id, status)
		}
		for _, inv := range batch {
			if inv.ID == id && inv.Status == status {
				return inv
			}
		}
	}
}

func TestGatewayCallToAskedToolWaitsAndRunsWhenApproved(t *testing.T) {
	ir, _, sent := newHoldRig(t)
	inv, err := ir.svc.Start(t.Context(), gatewayCall(ir, "rm", `{"path":"/tmp/x"}`))
	if err != nil {
		t.Fatal(err)
	}
	held := ir.waitStatus(t, inv.ID, domain.InvocationAwaitingApproval)
	if held.Source != domain.SourceGateway || held.Client.Name != "Claude Code" || held.Client.Token != "laptop" {
		t.Errorf("source and client: got %q %+v", held.Source, held.Client)
	}
	if n := sent.Load(); n != 0 {
		t.Fatalf("sent before approval: %d calls", n)
	}
	got, err := ir.svc.Approve(t.Context(), ir.scope, inv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != domain.InvocationRunning && !got.Status.Final() {
		t.Errorf("after approve: got %s, want running or final", got.Status)
	}
	ir.waitStatus(t, inv.ID, domain.InvocationSuccess)
	if n := sent.Load(); n != 1 {
		t.Errorf("sent: got %d calls, want 1", n)
	}
	if _, err := ir.svc.Approve(t.Context(), ir.scope, inv.ID); !errors.Is(err, domain.ErrNotAwaitingApproval) {
		t.Errorf("second approve: got %v, want ErrNotAwaitingApproval", err)
	}
}

// callAsync runs Call in the background and returns its outcome channel.
func callAsync(ir *holdRig, ctx context.Context, req domain.CallRequest) <-chan callOutcome {
	out := make(chan callOutcome, 1)
	go func() {
		inv, err := ir.svc.Call(ctx, req)
		out <- callOutcome{inv, err}
	}()
	return out
}

type callOutcome struct {
	inv domain.Invocation
	err error
}

// heldID waits for the next call to be held and returns its id.
func (ir *invRig) heldID(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		batch, err := ir.feed.Next(ctx)
		if err != nil {
			t.Fatal("no call was held for approval")
		}
		for _, inv := range batch {
			if inv.Status == domain.InvocationAwaitingApproval {
				return inv.ID
			}
		}
	}
}

func TestDeniedCallEndsDeniedUnsent(t *testing.T) {
	ir, _, sent := newHoldRig(t)
	out := callAsync(ir, t.Context(), gatewayCall(ir, "rm", `{}`))
	id := ir.heldID(t)
	if _, err := ir.svc.Deny(t.Context(), ir.scope, id); err != nil {
		t.Fatal(err)
	}
	o := <-out
	if o.err != nil || o.inv.Status != domain.InvocationDenied || o.inv.Error != domain.DeniedMessage {
		t.Errorf("got %s %q %v, want denied %q", o.inv.Status, o.inv.Error, o.err, domain.DeniedMessage)
	}
	if n := sent.Load(); n != 0 {
		t.Errorf("sent: got %d calls, want 0", n)
	}
}

func TestCallPastHoldLimitReturnsAwaitingAndLateApprovalGrantsOneRetry(t *testing.T) {
	ir, _, sent := newHoldRig(t)
	args := `{"path":"/tmp/x","force":true}`
	out := callAsync(ir, t.Context(), gatewayCall(ir, "rm", args))
	id := ir.heldID(t)
	ir.clock.WaitForTimer(t, testHold)
	ir.clock.Advance(testHold)
	o := <-out
	var ae *domain.AwaitingApprovalError
	if !errors.As(o.err, &ae) || ae.Invocation.ID != id || ae.Hold != testHold {
		t.Fatalf("got %v, want *AwaitingApprovalError for %s", o.err, id)
	}
	late, err := ir.svc.Approve(t.Context(), ir.scope, id)
	if err != nil {
		t.Fatal(err)
	}
	if late.Status != domain.InvocationCancelled || late.ErrorCode != domain.ErrorCodeApprovalExpired {
		t.Errorf("late approval: got %s %q, want cancelled %q", late.Status, late.ErrorCode, domain.ErrorCodeApprovalExpired)
	}
	if n := sent.Load(); n != 0 {
		t.Fatalf("a late approval sent the stale call: %d calls", n)
	}
	// The same arguments in another key order are the same arguments.
	retry, err := ir.svc.Call(t.Context(), gatewayCall(ir, "rm", `{"force":true,"path":"/tmp/x"}`))
	if err != nil || retry.Status != domain.InvocationSuccess {
		t.Fatalf("retry: got %s %v, want success at once", retry.Status, err)
	}
	// The grant was used up: the next identical call is held again.
	again, err := ir.svc.Start(t.Context(), gatewayCall(ir, "rm", args))
	if err != nil {
		t.Fatal(err)
	}
	ir.waitStatus(t, again.ID, domain.InvocationAwaitingApproval)
}

func TestGrantDoesNotCoverOtherArgumentsClientOrAfterExpiry(t *testing.T) {
	tests := []struct {
		name   string
		change func(*domain.CallRequest)
		wait   time.Duration
	}{
		{"other-arguments", func(r *domain.CallRequest) { r.Arguments = json.RawMessage(`{"path":"/etc"}`) }, 0},
		{"other-client-token", func(r *domain.CallRequest) { r.Client.Token = "desktop" }, 0},
		{"other-tool", func(r *domain.CallRequest) { r.Tool = "ls" }, 0},
		{"expired", func(r *domain.CallRequest) {}, domain.GrantValidity},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ir, policies, _ := newHoldRig(t)
			if err := policies.SaveAskAll(t.Context(), ir.scope, "srv", true); err != nil {
				t.Fatal(err)
			}
			out := callAsync(ir, t.Context(), gatewayCall(ir, "rm", `{"path":"/tmp/x"}`))
			id := ir.heldID(t)
			ir.clock.WaitForTimer(t, testHold)
			ir.clock.Advance(testHold)
			<-out
			if _, err := ir.svc.Approve(t.Context(), ir.scope, id); err != nil {
				t.Fatal(err)
			}
			ir.clock.Advance(tt.wait)
			req := gatewayCall(ir, "rm", `{"path":"/tmp/x"}`)
			tt.change(&req)
			inv, err := ir.svc.Start(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			ir.waitStatus(t, inv.ID, domain.InvocationAwaitingApproval)
		})
	}
}

func TestUndecidedHeldCallExpires(t *testing.T) {
	ir, _, _ := newHoldRig(t)
	out := callAsync(ir, t.Context(), gatewayCall(ir, "rm", `{}`))
	id := ir.heldID(t)
	ir.clock.WaitForTimer(t, testHold)
	ir.clock.Advance(testHold)
	<-out
	ir.clock.WaitForTimer(t, domain.GrantValidity)
	ir.clock.Advance(domain.GrantValidity)
	inv := ir.waitStatus(t, id, domain.InvocationCancelled)
	if inv.ErrorCode != domain.ErrorCodeApprovalExpired {
		t.Errorf("error code: got %q, want %q", inv.ErrorCode, domain.ErrorCodeApprovalExpired)
	}
	if _, err := ir.svc.Approve(t.Context(), ir.scope, id); !errors.Is(err, domain.ErrNotAwaitingApproval) {
		t.Errorf("approve after expiry: got %v, want ErrNotAwaitingApproval", err)
	}
}

func TestClientGivingUpCancelsHeldCall(t *testing.T) {
	ir, _, _ := newHoldRig(t)
	ctx, cancel := context.WithCancel(t.Context())
	out := callAsync(ir, ctx, gatewayCall(ir, "rm", `{}`))
	ir.heldID(t)
	cancel()
	if o := <-out; o.err != nil || o.inv.Status != domain.InvocationCancelled {
		t.Errorf("got %s %v, want cancelled", o.inv.Status, o.err)
	}
}

func TestPersonCancelsHeldCall(t *testing.T) {
	ir, _, _ := newHoldRig(t)
	inv, err := ir.svc.Start(t.Context(), gatewayCall(ir, "rm", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	ir.waitStatus(t, inv.ID, domain.InvocationAwaitingApproval)
	got, err := ir.svc.Cancel(t.Context(), ir.scope, inv.ID)
	if err != nil || got.Status != domain.InvocationCancelled {
		t.Errorf("got %s %v, want cancelled", got.Status, err)
	}
}
