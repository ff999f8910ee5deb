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

// A call started for someone who is given its id at once (an API client)
// is stored as pending before Start returns; its running state is queued,
// and its final state is published as soon as it is decided, before it is
// stored with its audit row.
func TestStartStoresPendingBeforeReturning(t *testing.T) {
	ir, wl, svc := newWriteLogRig(t)
	inv, err := svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow",
		Source: domain.SourceAPI})
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
	if !wl.seenFinal {
		t.Error("the feed showed the call's end only after its final state was stored, want as soon as it was decided")
	}
}

// A person's call from the dashboard is followed on the feed, and its id
// is handed to nobody: none of its states is waited for before the final
// one, which Await still waits for.
func TestDashboardStartQueuesPending(t *testing.T) {
	ir, wl, svc := newWriteLogRig(t)
	inv, err := svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow",
		Source: domain.SourceDashboard})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := svc.Await(ctx, ir.scope, inv.ID)
	if err != nil || got.Status != domain.InvocationSuccess {
		t.Fatalf("Await: got %s, %v; want success", got.Status, err)
	}
	if got, want := wl.String(), "queue pending, queue running, finish success"; got != want {
		t.Errorf("writes: got %q, want %q", got, want)
	}
	if stored, err := wl.Invocation(ctx, ir.scope, inv.ID); err != nil || stored.Status != domain.InvocationSuccess {
		t.Errorf("stored when Await returned: got %s, %v; want success", stored.Status, err)
	}
}

// heldFinish is an invocation store whose FinishInvocation waits until
// release is closed, so a test can look at everything else meanwhile.
type heldFinish struct {
	*domaintest.InvocationStore
	entered chan domain.Invocation // receives the final state when FinishInvocation starts
	release chan struct{}
}

func (h *heldFinish) FinishInvocation(ctx context.Context, inv domain.Invocation, rec domain.AuditRecord) error {
	h.entered <- inv
	<-h.release
	return h.InvocationStore.FinishInvocation(ctx, inv, rec)
}

// While a gateway call's final state and audit row are being committed,
// the pages already see it finished, and the agent is not answered: its
// waiter returns only once both are stored.
func TestGatewayResultWaitsForTheAuditRow(t *testing.T) {
	ir := newInvRig(t, nil)
	ir.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"text","text":"hi"}]}`), nil
	})
	store := &heldFinish{InvocationStore: domaintest.NewInvocationStore(), entered: make(chan domain.Invocation, 1),
		release: make(chan struct{})}
	svc := domain.NewInvocations(domain.InvocationsOptions{Caller: ir.fleet, Catalog: ir.fleet, Store: store, Clock: ir.clock})
	page := svc.Feed().Subscribe(ir.scope)
	defer page.Close()
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	var once sync.Once
	release := func() { once.Do(func() { close(store.release) }) }
	defer release() // a failing test must not leave Close waiting on the store

	_, wait, err := svc.StartWhole(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow",
		Source: domain.SourceGateway, Forwarded: true})
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		inv   domain.Invocation
		whole json.RawMessage
		err   error
	}
	answered := make(chan answer, 1)
	go func() {
		inv, whole, err := wait(context.Background())
		answered <- answer{inv, whole, err}
	}()
	final := <-store.entered
	seen := false
	for _, inv := range page.Drain() {
		seen = seen || (inv.ID == final.ID && inv.Status == domain.InvocationSuccess && inv.Version == final.Version)
	}
	if !seen {
		t.Error("the page did not see the call's end while it was being stored")
	}
	select {
	case a := <-answered:
		t.Fatalf("the agent was answered (%s) before the audit row was stored", a.inv.Status)
	default:
	}
	if audit := store.Audit(); len(audit) != 0 {
		t.Fatalf("audit before FinishInvocation returned: got %+v, want none", audit)
	}
	release()
	a := <-answered
	if a.err != nil || a.inv.Status != domain.InvocationSuccess || string(a.whole) == "" {
		t.Fatalf("answer: got %s %q, %v; want success with the result", a.inv.Status, a.whole, a.err)
	}
	if audit := store.Audit(); len(audit) != 1 || audit[0].InvocationID != a.inv.ID {
		t.Errorf("audit when the agent was answered: got %+v, want one row of %s", audit, a.inv.ID)
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

// queuedFinish is a store that takes the final state before committing
// it (domain.FinishQueuer), holding the commit until release is closed.
type queuedFinish struct {
	*heldFinish
	page       *domain.InvocationSubscription
	seenBefore bool // the page saw the end before the store was handed it
}

func (q *queuedFinish) QueueFinish(inv domain.Invocation, rec domain.AuditRecord, _ func(error)) func(context.Context) error {
	for _, seen := range q.page.Drain() {
		q.seenBefore = q.seenBefore || (seen.ID == inv.ID && seen.Status.Final())
	}
	return func(ctx context.Context) error { return q.heldFinish.FinishInvocation(ctx, inv, rec) }
}

// A store that can queue the final state is handed it before the page
// sees the end, so a listing the page makes on seeing it is not older;
// the agent is still answered only once it is committed.
func TestQueuedFinishIsHandedInBeforeTheEndIsPublished(t *testing.T) {
	ir := newInvRig(t, nil)
	ir.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[]}`), nil
	})
	q := &queuedFinish{heldFinish: &heldFinish{InvocationStore: domaintest.NewInvocationStore(),
		entered: make(chan domain.Invocation, 1), release: make(chan struct{})}}
	svc := domain.NewInvocations(domain.InvocationsOptions{Caller: ir.fleet, Catalog: ir.fleet, Store: q, Clock: ir.clock})
	q.page = svc.Feed().Subscribe(ir.scope)
	defer q.page.Close()
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	var once sync.Once
	release := func() { once.Do(func() { close(q.release) }) }
	defer release()

	_, wait, err := svc.StartWhole(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow",
		Source: domain.SourceGateway, Forwarded: true})
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan domain.Invocation, 1)
	go func() {
		inv, _, _ := wait(context.Background())
		answered <- inv
	}()
	final := <-q.entered
	if q.seenBefore {
		t.Error("the page saw the call's end before the store was handed its final state")
	}
	seen := false
	for _, inv := range q.page.Drain() {
		seen = seen || (inv.ID == final.ID && inv.Status.Final())
	}
	if !seen {
		t.Error("the page did not see the call's end while it was being committed")
	}
	select {
	case inv := <-answered:
		t.Fatalf("the agent was answered (%s) before the commit", inv.Status)
	default:
	}
	release()
	if inv := <-answered; inv.Status != domain.InvocationSuccess || len(q.Audit()) != 1 {
		t.Errorf("answer: got %s with %d audit rows, want success with 1", inv.Status, len(q.Audit()))
	}
}
