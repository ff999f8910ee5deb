package sqlite_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

func TestGatewaySessionSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	scope := domain.Scope{User: domain.LocalUser, Workspace: "/w"}
	created := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	want := domain.GatewaySession{ID: "mcp-session-1", Scope: scope, Endpoint: "/mcp",
		Client:          domain.ClientIdentity{Name: "claude-code", Version: "2.1.0", Token: "laptop"},
		ProtocolVersion: "2025-11-25", Capabilities: json.RawMessage(`{"elicitation":{"form":{}},"roots":{"listChanged":true}}`),
		CreatedAt: created, LastSeen: created}
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s := db.GatewaySessionStore()
	if err := s.SaveGatewaySession(ctx, want); err != nil {
		t.Fatal(err)
	}
	want.LastSeen = created.Add(time.Hour)
	if err := s.TouchGatewaySession(ctx, scope, want.ID, want.LastSeen); err != nil {
		t.Fatal(err)
	}
	// An older touch, from a request that was slower to record, does not
	// move last seen back.
	if err := s.TouchGatewaySession(ctx, scope, want.ID, created); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s = db.GatewaySessionStore()
	got, err := s.GatewaySession(ctx, scope, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
		t.Errorf("reopened:\n got %s\nwant %s", g, w)
	}
	if _, err := s.GatewaySession(ctx, domain.Scope{User: domain.LocalUser, Workspace: "/other"}, want.ID); !errors.Is(err, domain.ErrGatewaySessionNotFound) {
		t.Errorf("another workspace's lookup: got %v, want ErrGatewaySessionNotFound", err)
	}
	if err := s.DeleteGatewaySessions(ctx, scope, "laptop"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GatewaySession(ctx, scope, want.ID); !errors.Is(err, domain.ErrGatewaySessionNotFound) {
		t.Errorf("after its token was revoked: got %v, want ErrGatewaySessionNotFound", err)
	}
}

func TestGatewaySessionsArePrunedWhenIdleAndCapped(t *testing.T) {
	ctx := context.Background()
	s := openDB(t).GatewaySessionStore()
	scope := domain.Scope{User: domain.LocalUser, Workspace: "/w"}
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i := range 6 {
		at := start.Add(time.Duration(i) * time.Hour)
		if err := s.SaveGatewaySession(ctx, domain.GatewaySession{ID: fmt.Sprint("s", i), Scope: scope, Endpoint: "/mcp",
			CreatedAt: at, LastSeen: at}); err != nil {
			t.Fatal(err)
		}
	}
	// s0 is idle too long; of s1..s5 the three most recently seen stay.
	if err := s.PruneGatewaySessions(ctx, start.Add(time.Hour), 3); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		_, err := s.GatewaySession(ctx, scope, fmt.Sprint("s", i))
		if kept := err == nil; kept != (i >= 3) {
			t.Errorf("s%d: kept %v (%v), want %v", i, kept, err, i >= 3)
		}
	}
}
