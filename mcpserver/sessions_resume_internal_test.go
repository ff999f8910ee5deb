package mcpserver

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

type testToken struct{}

// resumeRig is a client registry over a real database, and the request
// context of a fresh, empty session as mcp-go makes for each request of a
// session it does not hold.
type resumeRig struct {
	g     *Gateway
	r     *clientRegistry
	clock *domaintest.Clock
	store *sqlite.GatewaySessionStore
}

var resumeScope = domain.Scope{User: domain.LocalUser, Workspace: "/w"}

func newResumeRig(t *testing.T) *resumeRig {
	t.Helper()
	db, err := sqlite.Open(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := domaintest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	rig := &resumeRig{clock: clock, store: db.GatewaySessionStore(), r: newClientRegistry(clock)}
	rig.g = &Gateway{opts: Options{Scope: resumeScope, Clock: clock, Sessions: rig.store, Log: slog.New(slog.DiscardHandler),
		TokenName: func(ctx context.Context) string { s, _ := ctx.Value(testToken{}).(string); return s }}}
	return rig
}

// request returns a request context of session id let in with token.
func (rig *resumeRig) request(id, token string) (context.Context, *server.InProcessSession) {
	s := server.NewInProcessSession(id, nil)
	ctx := server.NewMCPServer("test", "1").WithContext(context.Background(), s)
	return context.WithValue(ctx, testToken{}, token), s
}

var callMessage = json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`)

func TestResumedSessionGetsItsIdentityOnlyForItsTokenAndEndpoint(t *testing.T) {
	rig := newResumeRig(t)
	at := rig.clock.Now().Add(-time.Hour)
	if err := rig.store.SaveGatewaySession(t.Context(), domain.GatewaySession{ID: "s1", Scope: resumeScope, Endpoint: "/mcp/alpha",
		Client: domain.ClientIdentity{Name: "claude-code", Version: "2.1.0", Token: "laptop"}, ProtocolVersion: "2025-06-18",
		Capabilities: json.RawMessage(`{"elicitation":{},"roots":{"listChanged":true}}`), CreatedAt: at, LastSeen: at}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, token, endpoint string }{
		{"other-token", "desktop", "/mcp/alpha"},
		{"other-endpoint", "laptop", "/mcp"},
	} {
		ctx, s := rig.request("s1", tt.token)
		rig.r.resume(ctx, rig.g, tt.endpoint, callMessage)
		if ci := s.GetClientInfo(); ci.Name != "" {
			t.Errorf("%s: got client %+v, want none", tt.name, ci)
		}
	}
	ctx, s := rig.request("s1", "laptop")
	rig.r.resume(ctx, rig.g, "/mcp/alpha", callMessage)
	caps := s.GetClientCapabilities()
	if ci := s.GetClientInfo(); ci.Name != "claude-code" || ci.Version != "2.1.0" {
		t.Errorf("client: got %+v, want claude-code 2.1.0", ci)
	}
	if caps.Elicitation == nil || caps.Roots == nil || !caps.Roots.ListChanged || caps.Sampling != nil {
		t.Errorf("capabilities: got %+v, want elicitation and roots with listChanged", caps)
	}
	if v := s.ProtocolVersion(); v != "2025-06-18" {
		t.Errorf("protocol version: got %q, want 2025-06-18", v)
	}
	got := rig.r.list()
	if len(got) != 1 || got[0].SessionID != "s1" || !got[0].Since.Equal(at) || got[0].Client.Token != "laptop" {
		t.Errorf("clients: got %+v, want s1 since %v", got, at)
	}
}

func TestResumedSessionRecordsActivityAtMostEveryTenMinutes(t *testing.T) {
	rig := newResumeRig(t)
	start := rig.clock.Now()
	if err := rig.store.SaveGatewaySession(t.Context(), domain.GatewaySession{ID: "s1", Scope: resumeScope, Endpoint: "/mcp",
		Client: domain.ClientIdentity{Name: "c", Token: "laptop"}, CreatedAt: start, LastSeen: start}); err != nil {
		t.Fatal(err)
	}
	step := func(d time.Duration) time.Time {
		rig.clock.Advance(d)
		ctx, _ := rig.request("s1", "laptop")
		rig.r.resume(ctx, rig.g, "/mcp", callMessage)
		rig.r.seen(ctx, rig.g, "/mcp", true)
		rec, err := rig.store.GatewaySession(t.Context(), resumeScope, "s1")
		if err != nil {
			t.Fatal(err)
		}
		return rec.LastSeen
	}
	if got := step(time.Minute); !got.Equal(start) {
		t.Errorf("after a minute: stored last seen %v, want %v (not yet written)", got, start)
	}
	if got, want := step(sessionTouchEvery), start.Add(time.Minute+sessionTouchEvery); !got.Equal(want) {
		t.Errorf("after ten more minutes: stored last seen %v, want %v", got, want)
	}
}

func TestInitializePrunesIdleStoredSessions(t *testing.T) {
	rig := newResumeRig(t)
	old := rig.clock.Now().Add(-SessionRetention - time.Minute)
	if err := rig.store.SaveGatewaySession(t.Context(), domain.GatewaySession{ID: "old", Scope: resumeScope, Endpoint: "/mcp",
		CreatedAt: old, LastSeen: old}); err != nil {
		t.Fatal(err)
	}
	now := rig.clock.Now()
	rig.r.remember(t.Context(), rig.g, domain.GatewaySession{ID: "new", Scope: resumeScope, Endpoint: "/mcp",
		Client: domain.ClientIdentity{Name: "c"}, CreatedAt: now, LastSeen: now}, mcp.ClientCapabilities{})
	if _, err := rig.store.GatewaySession(t.Context(), resumeScope, "old"); err == nil {
		t.Error("a session idle for over a day is still stored")
	}
	if _, err := rig.store.GatewaySession(t.Context(), resumeScope, "new"); err != nil {
		t.Errorf("the new session: %v", err)
	}
}
