package domain_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// writeLog is an invocation store that records how each state reached it,
// and what the feed had shown of the call when its final state did.
type writeLog struct {
	*domaintest.InvocationStore
	feed *domain.InvocationSubscription

	mu        sync.Mutex // guards ways and seenFinal
	ways      []string   // "save pending", "queue running", "finish success", ...
	seenFinal bool       // the feed showed a final state before FinishInvocation
}

func (w *writeLog) note(way string, inv domain.Invocation) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ways = append(w.ways, way+" "+string(inv.Status))
}

func (w *writeLog) SaveInvocation(ctx context.Context, inv domain.Invocation) error {
	w.note("save", inv)
	return w.InvocationStore.SaveInvocation(ctx, inv)
}

func (w *writeLog) QueueInvocation(inv domain.Invocation, failed func(error)) {
	w.note("queue", inv)
	w.InvocationStore.QueueInvocation(inv, failed)
}

func (w *writeLog) FinishInvocation(ctx context.Context, inv domain.Invocation, rec domain.AuditRecord) error {
	w.note("finish", inv)
	for _, seen := range w.feed.Drain() {
		if seen.ID == inv.ID && seen.Status.Final() {
			w.mu.Lock()
			w.seenFinal = true
			w.mu.Unlock()
		}
	}
	return w.InvocationStore.FinishInvocation(ctx, inv, rec)
}

func (w *writeLog) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.ways, ", ")
}

func newWriteLogRig(t *testing.T) (*invRig, *writeLog, *domain.Invocations) {
	ir := newInvRig(t, nil)
	ir.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[]}`), nil
	})
	wl := &writeLog{InvocationStore: domaintest.NewInvocationStore()}
	svc := domain.NewInvocations(domain.InvocationsOptions{Caller: ir.fleet, Catalog: ir.fleet, Store: wl, Clock: ir.clock})
	wl.feed = svc.Feed().Subscribe(ir.scope)
	t.Cleanup(func() {
		wl.feed.Close()
		_ = svc.Close(context.Background())
	})
	return ir, wl, svc
}

// A call started for someone who is given its id at once (an API client,
// the dashboard) is stored as pending before Start returns; its running
// state is queued, and its final state is stored with its audit row before
// anyone sees it on the feed.
func TestStartStoresPendingBeforeReturning(t *testing.T) {
	ir, wl, svc := newWriteLogRig(t)
	inv, err := svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	if got := wl.String(); !strings.HasPrefix(got, "save pending") {
		t.Errorf("writes when Start returned: got %q, want %q first", got, "save pending")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := svc.Await(ctx, ir.scope, inv.ID); err != nil {
		t.Fatal(err)
	}
	if got, want := wl.String(), "save pending, queue running, finish success"; got != want {
		t.Errorf("writes: got %q, want %q", got, want)
	}
	if wl.seenFinal {
		t.Error("the feed showed the call finished before its final state was stored")
	}
}

// A gateway call's client learns nothing of it before it ends, so only its
// final state, with the audit row, is waited for.
func TestStartWholeWaitsOnlyForTheFinalState(t *testing.T) {
	ir, wl, svc := newWriteLogRig(t)
	_, wait, err := svc.StartWhole(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow",
		Source: domain.SourceGateway})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, _, err := wait(ctx)
	if err != nil || got.Status != domain.InvocationSuccess {
		t.Fatalf("wait: got %s, %v; want success", got.Status, err)
	}
	if got, want := wl.String(), "queue pending, queue running, finish success"; got != want {
		t.Errorf("writes: got %q, want %q", got, want)
	}
	if stored, err := wl.Invocation(ctx, ir.scope, got.ID); err != nil || stored.Status != domain.InvocationSuccess {
		t.Errorf("stored when the waiter returned: got %s, %v; want success", stored.Status, err)
	}
	if audit := wl.Audit(); len(audit) != 1 || audit[0].InvocationID != got.ID {
		t.Errorf("audit when the waiter returned: got %+v, want one row of %s", audit, got.ID)
	}
}

// A caller that chose the call's key waits for the pending state even
// through the gateway's way in: only the store can refuse a replay.
func TestStartWholeWithAChosenKeyWaitsForPending(t *testing.T) {
	ir, wl, svc := newWriteLogRig(t)
	_, wait, err := svc.StartWhole(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow",
		Key: domain.CallKey{ConversationID: "c", MessageID: "m", ToolCallID: "t"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := wl.String(); !strings.HasPrefix(got, "save pending") {
		t.Errorf("writes when StartWhole returned: got %q, want %q first", got, "save pending")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, _, err := wait(ctx); err != nil {
		t.Fatal(err)
	}
}
