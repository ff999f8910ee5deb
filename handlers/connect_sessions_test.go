package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/mcpserver"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// TestConnectPageListsSessionsAndRevokeEndsThem: a client that connected
// with a client token is listed on the Connect page with that token's
// name; revoking the token takes it off the list.
func TestConnectPageListsSessionsAndRevokeEndsThem(t *testing.T) {
	db, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tokens, err := domain.NewClientTokens(context.Background(), domain.ClientTokensOptions{
		Store: db.ClientTokenStore(), Clock: domaintest.NewClock(testNow)})
	if err != nil {
		t.Fatal(err)
	}
	var gw *mcpserver.Gateway
	f := newFixture(t, func(o *handlers.Options) {
		o.ClientTokens = tokens
		svc := domain.NewInvocations(domain.InvocationsOptions{Caller: o.Fleet, Catalog: o.Fleet, Store: domaintest.NewInvocationStore()})
		gw = mcpserver.New(mcpserver.Options{Fleet: o.Fleet, Invocations: svc, Scope: o.Scope, TokenName: handlers.MCPTokenName, Version: "test"})
		o.Gateway = gw
	})
	t.Cleanup(func() { gw.Close(context.Background()) })
	_, secret, err := tokens.Create(t.Context(), "laptop")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transport.NewStreamableHTTP(f.srv.URL+handlers.PathMCP,
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + secret}))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion("2025-11-25"))
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "claude-code", Version: "2.1.0"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}

	r := f.ui(t, http.MethodGet, handlers.PathConnect, nil, "en")
	rows := r.doc.Find(`[data-testid="connect-session"]`)
	if rows.Length() != 1 || rows.AttrOr("data-legacy", "") != "true" {
		t.Fatalf("got %d session rows, want one legacy session", rows.Length())
	}
	if name, tok := rows.Find(`[data-testid="connect-session-name"]`).Text(), rows.Find(`[data-testid="connect-session-token"]`).Text(); name != "claude-code" || tok != "laptop" {
		t.Errorf("row: got client %q token %q, want claude-code and laptop", name, tok)
	}

	if status, body := f.doBody(t, http.MethodDelete, handlers.ServerPath(handlers.PathClientToken, "laptop"), nil, ""); status != http.StatusNoContent {
		t.Fatalf("revoke: got %d %s", status, body)
	}
	r = f.ui(t, http.MethodGet, handlers.PathConnect, nil, "en")
	if n := r.doc.Find(`[data-testid="connect-session"]`).Length(); n != 0 || r.doc.Find(`[data-testid="connect-sessions-empty"]`).Length() != 1 {
		t.Errorf("after revoking: got %d session rows, want none and the empty note", n)
	}
	if err := c.Ping(t.Context()); err == nil {
		t.Error("the revoked token's client can still ping")
	}
}
