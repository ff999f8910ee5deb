package sqlite_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

var grantStart = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// openDB opens a database in a fresh directory, closed when t ends.
func openDB(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func grantFor(token, args string) domain.Grant {
	return domain.Grant{Scope: domain.Scope{User: domain.LocalUser, Workspace: "/w"}, Token: token, Server: "srv", Tool: "rm",
		ArgsHash: domain.ArgumentsHash(json.RawMessage(args))}
}

func TestGrantIsTakenOnceAndNotAfterExpiry(t *testing.T) {
	s := openDB(t).GrantStore()
	ctx := t.Context()
	g := grantFor("laptop", `{"path":"/tmp/x"}`)
	g.Expires = grantStart.Add(domain.GrantValidity)
	if err := s.AddGrant(ctx, g); err != nil {
		t.Fatal(err)
	}
	for _, other := range []domain.Grant{grantFor("desktop", `{"path":"/tmp/x"}`), grantFor("laptop", `{"path":"/etc"}`)} {
		if ok, err := s.TakeGrant(ctx, other, grantStart); ok || err != nil {
			t.Errorf("take %+v: got %v %v, want no grant", other, ok, err)
		}
	}
	if ok, err := s.TakeGrant(ctx, g, grantStart.Add(time.Minute)); !ok || err != nil {
		t.Fatalf("first take: got %v %v, want the grant", ok, err)
	}
	if ok, err := s.TakeGrant(ctx, g, grantStart.Add(time.Minute)); ok || err != nil {
		t.Errorf("second take: got %v %v, want it used up", ok, err)
	}

	// A grant is gone at its expiry, and dropped from the table.
	if err := s.AddGrant(ctx, g); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.TakeGrant(ctx, grantFor("nobody", `{}`), g.Expires); ok || err != nil {
		t.Fatalf("take: got %v %v", ok, err)
	}
	if ok, err := s.TakeGrant(ctx, g, grantStart); ok || err != nil {
		t.Errorf("take after expired grants were dropped: got %v %v, want no grant", ok, err)
	}
}

func TestGrantAddedAgainGetsTheNewExpiry(t *testing.T) {
	s := openDB(t).GrantStore()
	g := grantFor("laptop", `{}`)
	g.Expires = grantStart.Add(time.Minute)
	later := g
	later.Expires = grantStart.Add(domain.GrantValidity)
	for _, x := range []domain.Grant{g, later} {
		if err := s.AddGrant(t.Context(), x); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := s.TakeGrant(t.Context(), g, grantStart.Add(5*time.Minute)); !ok || err != nil {
		t.Errorf("take after the first expiry: got %v %v, want the renewed grant", ok, err)
	}
}

func TestConcurrentTakesOfOneGrantHaveOneWinner(t *testing.T) {
	s := openDB(t).GrantStore()
	g := grantFor("laptop", `{"n":1}`)
	g.Expires = grantStart.Add(domain.GrantValidity)
	for round := range 20 {
		if err := s.AddGrant(t.Context(), g); err != nil {
			t.Fatal(err)
		}
		const takers = 8
		var wg sync.WaitGroup
		won := make(chan bool, takers)
		start := make(chan struct{})
		for range takers {
			wg.Go(func() {
				<-start
				ok, err := s.TakeGrant(context.Background(), g, grantStart)
				if err != nil {
					t.Error(err)
				}
				won <- ok
			})
		}
		close(start)
		wg.Wait()
		close(won)
		n := 0
		for ok := range won {
			if ok {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("round %d: %d takers got the grant, want exactly 1", round, n)
		}
	}
}

// grantProcess is one run of Switchboard's invocation service over the
// database in a directory: a fleet with server "srv" offering the
// destructive tool "rm", whose gateway calls wait for a person.
type grantProcess struct {
	svc   *domain.Invocations
	clock *domaintest.Clock
	feed  *domain.InvocationSubscription
	stop  func()
}

const grantHold = 45 * time.Second

func startGrantProcess(t *testing.T, dir string, now time.Time) *grantProcess {
	t.Helper()
	db, err := sqlite.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	destructive := true
	conn := &domaintest.AutoConnector{Caps: domain.Capabilities{Tools: []domain.Tool{
		{Name: "rm", Annotations: domain.Annotations{DestructiveHint: &destructive}}}}}
	scope := grantFor("", `{}`).Scope
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: conn, Store: db.ServerStore(), Scope: scope, Clock: domaintest.NewClock(now), Rand: func() float64 { return 0 },
	}})
	p := &grantProcess{clock: domaintest.NewClock(now)}
	p.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: fleet, Catalog: fleet, Store: db.InvocationStore(),
		Clock: p.clock, Policies: domain.NewPolicies(db.PolicyStore()), ApprovalTimeout: grantHold, Grants: db.GrantStore()})
	p.feed = p.svc.Feed().Subscribe(scope)
	var once sync.Once
	p.stop = func() {
		once.Do(func() {
			p.feed.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = p.svc.Close(ctx)
			if err := fleet.Close(ctx); err != nil {
				t.Errorf("close fleet: %v", err)
			}
			if err := db.Close(); err != nil {
				t.Errorf("close database: %v", err)
			}
		})
	}
	t.Cleanup(p.stop)
	if err := fleet.Attach(t.Context(), []domain.ServerConfig{{Name: "srv", Transport: domain.TransportStdio, Command: "srv",
		CallTimeout: time.Minute, ConnectTimeout: time.Minute}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for st, err := fleet.Status("srv"); err != nil || st.State != domain.StateConnected; st, err = fleet.Status("srv") {
		if time.Now().After(deadline) {
			t.Fatalf("srv never connected: %+v %v", st, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return p
}

func (p *grantProcess) call(args string) domain.CallRequest {
	g := grantFor("laptop", args)
	return domain.CallRequest{Scope: g.Scope, Server: "srv", Tool: "rm", Arguments: json.RawMessage(args),
		Source: domain.SourceGateway, Forwarded: true, Client: domain.ClientIdentity{Name: "Claude Code", Token: g.Token}}
}

// outcome waits on the feed for id's first status that is held or final.
func (p *grantProcess) outcome(t *testing.T, id string) domain.InvocationStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for {
		batch, err := p.feed.Next(ctx)
		if err != nil {
			t.Fatalf("invocation %s was neither held nor ended", id)
		}
		for _, inv := range batch {
			if inv.ID == id && (inv.Status == domain.InvocationAwaitingApproval || inv.Status.Final()) {
				return inv.Status
			}
		}
	}
}

// A person approves a held call after its client stopped waiting, and
// Switchboard restarts: the client's identical retry still runs at once,
// exactly once, and a grant past its ten minutes runs nothing.
func TestLateApprovalSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	args := `{"path":"/tmp/x","force":true}`
	first := startGrantProcess(t, dir, grantStart)
	held := make(chan error, 1)
	go func() {
		_, err := first.svc.Call(t.Context(), first.call(args))
		held <- err
	}()
	first.clock.WaitForTimer(t, grantHold)
	first.clock.Advance(grantHold)
	var ae *domain.AwaitingApprovalError
	if err := <-held; !errors.As(err, &ae) {
		t.Fatalf("held call: got %v, want *AwaitingApprovalError", err)
	}
	if _, err := first.svc.Approve(t.Context(), ae.Invocation.Scope, ae.Invocation.ID); err != nil {
		t.Fatal(err)
	}
	first.stop()

	second := startGrantProcess(t, dir, grantStart.Add(grantHold+time.Minute))
	// Arguments in another key order are the same arguments.
	retry, err := second.svc.Start(t.Context(), second.call(`{"force":true,"path":"/tmp/x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := second.outcome(t, retry.ID); got != domain.InvocationSuccess {
		t.Fatalf("retry after restart: got %s, want success without asking", got)
	}
	again, err := second.svc.Start(t.Context(), second.call(args))
	if err != nil {
		t.Fatal(err)
	}
	if got := second.outcome(t, again.ID); got != domain.InvocationAwaitingApproval {
		t.Errorf("second retry: got %s, want held again (a grant runs one call)", got)
	}
	second.stop()

	// A grant whose ten minutes passed, restart or not, runs nothing.
	third := startGrantProcess(t, dir, grantStart)
	go func() {
		_, err := third.svc.Call(t.Context(), third.call(`{"path":"/late"}`))
		held <- err
	}()
	third.clock.WaitForTimer(t, grantHold)
	third.clock.Advance(grantHold)
	if err := <-held; !errors.As(err, &ae) {
		t.Fatalf("held call: got %v, want *AwaitingApprovalError", err)
	}
	if _, err := third.svc.Approve(t.Context(), ae.Invocation.Scope, ae.Invocation.ID); err != nil {
		t.Fatal(err)
	}
	third.stop()
	fourth := startGrantProcess(t, dir, grantStart.Add(grantHold+domain.GrantValidity))
	late, err := fourth.svc.Start(t.Context(), fourth.call(`{"path":"/late"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fourth.outcome(t, late.ID); got != domain.InvocationAwaitingApproval {
		t.Errorf("retry after the grant expired: got %s, want held", got)
	}
}
