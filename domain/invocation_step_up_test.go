package domain_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// stepUpRig is an invocation service over one connected server "srv"
// whose calls answer what refuse says: a 403 insufficient_scope asking for
// "write" while it is set, success otherwise. The server has no keep-alive
// probe, so the test can move the clock by minutes.
type stepUpRig struct {
	*invRig
	refuse chan bool // holds the current answer; a call takes and puts it back
}

func newStepUpRig(t *testing.T) *stepUpRig {
	t.Helper()
	r := newRig(t, nil)
	cfg := server("srv")
	cfg.CallTimeout, cfg.KeepAlive = time.Minute, 0
	r.attach(cfg)
	sess := domaintest.NewSession(domain.Capabilities{Tools: []domain.Tool{{Name: "write"}, {Name: "read"}}})
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("srv", domain.PhaseConnected)
	sr := &stepUpRig{invRig: &invRig{rig: r, sess: sess, store: domaintest.NewInvocationStore(),
		scope: domain.Scope{User: "local", Workspace: "/w"}}, refuse: make(chan bool, 1)}
	sr.refuse <- true
	sr.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: r.fleet, Catalog: r.fleet, Store: sr.store, Clock: r.clock})
	sr.feed = sr.svc.Feed().Subscribe(sr.scope)
	t.Cleanup(func() {
		sr.feed.Close()
		_ = sr.svc.Close(context.Background())
	})
	sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		refuse := <-sr.refuse
		sr.refuse <- refuse
		if refuse {
			return nil, &domain.NeedsMoreAccessError{Scopes: []string{"read", "write"}}
		}
		return json.RawMessage(`{"content":[]}`), nil
	})
	return sr
}

func (sr *stepUpRig) setRefusing(t *testing.T, refuse bool) {
	t.Helper()
	<-sr.refuse
	sr.refuse <- refuse
}

// call runs tool to its end and returns the final invocation, as stored.
func (sr *stepUpRig) call(t *testing.T, tool string) domain.Invocation {
	t.Helper()
	inv, err := sr.svc.Start(context.Background(), domain.CallRequest{Scope: sr.scope, Server: "srv", Tool: tool})
	if err != nil {
		t.Fatalf("Start %s: %v", tool, err)
	}
	seen := sr.statuses(t, inv.ID)
	final := seen[len(seen)-1]
	stored, err := sr.svc.Get(context.Background(), sr.scope, inv.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if stored.ErrorCode != final.ErrorCode || !slices.Equal(stored.NeededScopes, final.NeededScopes) {
		t.Fatalf("stored code %q scopes %v, published %q %v", stored.ErrorCode, stored.NeededScopes, final.ErrorCode, final.NeededScopes)
	}
	return final
}

func wantStepUp(t *testing.T, n int, inv domain.Invocation) {
	t.Helper()
	if inv.Status != domain.InvocationError || inv.ErrorCode != domain.ErrorCodeNeedsMoreAccess ||
		!slices.Equal(inv.NeededScopes, []string{"read", "write"}) || !strings.Contains(inv.Error, "more access") {
		t.Fatalf("refusal %d: %s code %q scopes %v error %q; want error needs_more_access asking for read write",
			n, inv.Status, inv.ErrorCode, inv.NeededScopes, inv.Error)
	}
}

func wantKeepsRefusing(t *testing.T, n int, inv domain.Invocation) {
	t.Helper()
	if inv.Status != domain.InvocationError || inv.ErrorCode != "" || inv.NeededScopes != nil ||
		inv.Error != "the server keeps refusing: needs scopes read write" {
		t.Fatalf("refusal %d: %s code %q scopes %v error %q; want a plain error saying the server keeps refusing",
			n, inv.Status, inv.ErrorCode, inv.NeededScopes, inv.Error)
	}
}

// Two refusals of one tool offer a sign-in with more access; the third
// within ten minutes is a plain failure, and so is every further one until
// the window has passed. Another tool of the server counts on its own.
func TestStepUpLimitPerServerAndTool(t *testing.T) {
	sr := newStepUpRig(t)
	wantStepUp(t, 1, sr.call(t, "write"))
	sr.clock.Advance(time.Minute)
	wantStepUp(t, 2, sr.call(t, "write"))
	wantKeepsRefusing(t, 3, sr.call(t, "write"))
	wantStepUp(t, 1, sr.call(t, "read"))
	sr.clock.Advance(8 * time.Minute) // 9 minutes after the first refusal
	wantKeepsRefusing(t, 4, sr.call(t, "write"))
	sr.clock.Advance(time.Minute) // the first refusal leaves the window
	wantStepUp(t, 5, sr.call(t, "write"))
	wantKeepsRefusing(t, 6, sr.call(t, "write"))
}

// A call that succeeds after signing in with more access forgets the
// refusals: the next refusal of that tool offers a sign-in again.
func TestStepUpSuccessStartsAfresh(t *testing.T) {
	sr := newStepUpRig(t)
	wantStepUp(t, 1, sr.call(t, "write"))
	wantStepUp(t, 2, sr.call(t, "write"))
	sr.setRefusing(t, false)
	if inv := sr.call(t, "write"); inv.Status != domain.InvocationSuccess || inv.ErrorCode != "" || inv.NeededScopes != nil {
		t.Fatalf("granted call: %s code %q scopes %v, want success with neither", inv.Status, inv.ErrorCode, inv.NeededScopes)
	}
	sr.setRefusing(t, true)
	wantStepUp(t, 1, sr.call(t, "write"))
}
