package domain_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// leftOver is a call an earlier Switchboard process was running when it
// stopped; its version comes from that process's feed.
func leftOver(ir *invRig, id string) domain.Invocation {
	inv := domain.Invocation{ID: id, Scope: ir.scope, ServerName: "srv", Tool: "slow",
		Arguments: json.RawMessage(`{"b":1,"a":2}`), Status: domain.InvocationRunning,
		StartedAt: ir.clock.Now().Add(-time.Minute), Version: 500}
	ir.store.AddLeftOver(inv)
	return inv
}

func TestRecoverEndsCallsLeftByAnEarlierProcess(t *testing.T) {
	ir := newInvRig(t, nil)
	old := leftOver(ir, "old")
	ended, err := ir.svc.Recover(context.Background())
	if err != nil || len(ended) != 1 {
		t.Fatalf("Recover: got %v, %v; want the left-over call", ended, err)
	}
	got, err := ir.svc.Get(context.Background(), ir.scope, "old")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != domain.InvocationError || got.ErrorCode != domain.ErrorCodeInterrupted ||
		got.Error != domain.InterruptedMessage || got.EndedAt.IsZero() {
		t.Errorf("got %s %q %q ended %v, want error %q %q with an end", got.Status, got.ErrorCode, got.Error,
			got.EndedAt, domain.ErrorCodeInterrupted, domain.InterruptedMessage)
	}
	audit := ir.store.Audit()
	if len(audit) != 1 || audit[0].InvocationID != "old" || audit[0].Outcome != domain.InvocationError ||
		audit[0].ArgsSHA256 != domain.ArgumentsHash(old.Arguments) {
		t.Errorf("audit: got %+v, want one error row for old", audit)
	}
	if again, err := ir.svc.Recover(context.Background()); err != nil || len(again) != 0 {
		t.Errorf("second Recover: got %v, %v; want nothing", again, err)
	}
}

// Recover runs before any call, but must not end one that is in flight if
// it is ever run later.
func TestRecoverLeavesCallsInFlight(t *testing.T) {
	ir := newInvRig(t, nil)
	release := make(chan struct{})
	ir.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		<-release
		return json.RawMessage(`{"content":[]}`), nil
	})
	inv, err := ir.svc.Start(context.Background(), domain.CallRequest{Scope: ir.scope, Server: "srv", Tool: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	if ended, err := ir.svc.Recover(context.Background()); err != nil || len(ended) != 0 {
		t.Errorf("Recover during a call: got %v, %v; want nothing", ended, err)
	}
	close(release)
	if seen := ir.statuses(t, inv.ID); seen[len(seen)-1].Status != domain.InvocationSuccess {
		t.Errorf("the call in flight: got %s, want success", order(seen))
	}
}

// Cancelling a call that the store says runs but that nothing here runs
// (reached through the API after a restart) ends it rather than answering
// with a call that stays running forever.
func TestCancelOfALeftOverCallEndsIt(t *testing.T) {
	ir := newInvRig(t, nil)
	leftOver(ir, "old")
	got, err := ir.svc.Cancel(context.Background(), ir.scope, "old")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != domain.InvocationError || got.ErrorCode != domain.ErrorCodeInterrupted || got.EndedAt.IsZero() {
		t.Errorf("Cancel: got %s %q ended %v, want error %q with an end", got.Status, got.ErrorCode, got.EndedAt,
			domain.ErrorCodeInterrupted)
	}
	if got.Version <= 500 {
		t.Errorf("version: got %d, want above the stored 500 so pages take the change", got.Version)
	}
	stored, err := ir.svc.Get(context.Background(), ir.scope, "old")
	if err != nil || stored.Status != domain.InvocationError || stored.Version != got.Version {
		t.Errorf("stored: got %s v%d (%v), want error v%d", stored.Status, stored.Version, err, got.Version)
	}
	if audit := ir.store.Audit(); len(audit) != 1 || audit[0].InvocationID != "old" {
		t.Errorf("audit: got %+v, want one row for old", audit)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	batch, err := ir.feed.Next(ctx)
	if err != nil || len(batch) != 1 || batch[0].ID != "old" || batch[0].Status != domain.InvocationError {
		t.Errorf("feed: got %+v (%v), want the ended call", batch, err)
	}
	// Cancelling it again changes nothing.
	again, err := ir.svc.Cancel(context.Background(), ir.scope, "old")
	if err != nil || again.Version != got.Version || len(ir.store.Audit()) != 1 {
		t.Errorf("second Cancel: got v%d (%v), %d audit rows; want v%d and 1", again.Version, err,
			len(ir.store.Audit()), got.Version)
	}
	other := domain.Scope{User: "someone", Workspace: "/else"}
	if _, err := ir.svc.Cancel(context.Background(), other, "old"); err == nil {
		t.Error("Cancel from another scope: got no error, want not found")
	}
}
