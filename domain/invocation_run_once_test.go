package domain_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A Waiter runs the call it waits for itself when the call has not begun
// yet; ending the Waiter's context cancels the call there as it does when
// the call runs on its own goroutine.
func TestWaiterThatGivesUpCancelsTheCall(t *testing.T) {
	ir := newInvRig(t, nil)
	entered := make(chan struct{})
	ir.sess.OnCall(func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		close(entered)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	_, wait, err := ir.svc.StartWhole(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow",
		Source: domain.SourceGateway})
	if err != nil {
		t.Fatal(err)
	}
	ctx, giveUp := context.WithCancel(context.Background())
	go func() {
		<-entered
		giveUp()
	}()
	inv, _, err := wait(ctx)
	if err != nil || inv.Status != domain.InvocationCancelled {
		t.Errorf("wait: got %s, %v; want %s", inv.Status, err, domain.InvocationCancelled)
	}
}

// A call whose Waiter is never called still runs to its end.
func TestStartWholeRunsTheCallWithoutItsWaiter(t *testing.T) {
	ir := newInvRig(t, nil)
	ir.sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[]}`), nil
	})
	inv, _, err := ir.svc.StartWhole(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow",
		Source: domain.SourceGateway})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := ir.svc.Await(ctx, ir.scope, inv.ID)
	if err != nil || got.Status != domain.InvocationSuccess {
		t.Errorf("Await: got %s, %v; want %s", got.Status, err, domain.InvocationSuccess)
	}
}
