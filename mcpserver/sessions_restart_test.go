package mcpserver_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/demoserver"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
	"github.com/switchboard-mcp/switchboard/mcpserver"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// switchboardRun is one run of Switchboard's gateway over the data
// directory dir, listening on addr: a real fleet connected to the demo
// server, the invocation service and legacy sessions kept in SQLite, and
// requests carrying the token name of their X-Token header.
type switchboardRun struct {
	db      *sqlite.DB
	inv     *domain.Invocations
	gateway *mcpserver.Gateway
	addr    string
	stop    func()
}

func startRun(t *testing.T, dir, upstream, addr string) *switchboardRun {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: mcpclient.New(mcpclient.Options{}), Store: db.ServerStore(), Scope: scope}})
	r := &switchboardRun{db: db, inv: domain.NewInvocations(domain.InvocationsOptions{Caller: fleet, Catalog: fleet, Store: db.InvocationStore()})}
	r.gateway = mcpserver.New(mcpserver.Options{Fleet: fleet, Invocations: r.inv, Scope: scope, Version: "test",
		Sessions:  db.GatewaySessionStore(),
		TokenName: func(ctx context.Context) string { s, _ := ctx.Value(tokenKey{}).(string); return s }})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ctx := context.WithValue(req.Context(), tokenKey{}, req.Header.Get("X-Token"))
		r.gateway.Aggregated().ServeHTTP(w, req.WithContext(ctx))
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	var once sync.Once
	r.stop = func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), patience)
			defer cancel()
			r.gateway.Close(ctx)
			srv.Close()
			_ = r.inv.Close(ctx)
			if err := fleet.Close(ctx); err != nil {
				t.Errorf("close fleet: %v", err)
			}
			if err := db.Close(); err != nil {
				t.Errorf("close database: %v", err)
			}
		})
	}
	t.Cleanup(r.stop)
	if err := fleet.Attach(ctx, []domain.ServerConfig{{Name: "demo", Transport: domain.TransportHTTP,
		URL: upstream, AutoReconnect: true, ConnectTimeout: 30 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		st, err := fleet.Status("demo")
		return err == nil && st.State == domain.StateConnected
	})
	r.gateway.Refresh()
	return r
}

// A legacy client that carries on with its session after Switchboard
// restarted (Claude Code never initializes again) keeps its name: on the
// card, on the Connect page, and its capabilities for later asks. Another
// token using the same session ID gets none of it.
func TestLegacySessionKeepsItsClientAcrossRestart(t *testing.T) {
	demo := httptest.NewServer(server.NewStreamableHTTPServer(demoserver.New(demoserver.Options{})))
	t.Cleanup(demo.Close)
	dir := t.TempDir()
	first := startRun(t, dir, demo.URL+"/mcp", "127.0.0.1:0")

	tr, err := transport.NewStreamableHTTP("http://"+first.addr+"/mcp",
		transport.WithHTTPHeaders(map[string]string{"X-Token": "laptop"}), transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(legacyVersion))
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "claude-code", Version: "2.1.0"}
	init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	session := c.GetSessionId()
	if session == "" {
		t.Fatal("initialize opened no session")
	}
	first.stop()

	second := startRun(t, dir, demo.URL+"/mcp", first.addr)
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "demo__echo", map[string]any{"message": "after restart"}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(resultText(res), "after restart") {
		t.Fatalf("call after restart: got %+v", res)
	}
	if c.GetSessionId() != session {
		t.Fatalf("session: got %q, want %q carried on", c.GetSessionId(), session)
	}
	invs, err := second.inv.List(t.Context(), scope, domain.InvocationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	want := domain.ClientIdentity{Name: "claude-code", Version: "2.1.0", Token: "laptop"}
	if len(invs) != 1 || invs[0].Client != want {
		t.Fatalf("invocations: got %+v, want one by %+v", invs, want)
	}
	clients := second.gateway.Clients()
	if len(clients) != 1 || !clients[0].Legacy || clients[0].SessionID != session || clients[0].Client != want ||
		clients[0].Endpoint != "/mcp" || clients[0].Calls != 1 {
		t.Fatalf("clients: got %+v, want session %s of %+v with one call", clients, session, want)
	}

	// The same session ID with another token is an unknown session.
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"demo__echo","arguments":{"message":"thief"}}}`
	post, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://"+second.addr+"/mcp", strings.NewReader(body))
	post.Header.Set("Content-Type", "application/json")
	post.Header.Set("Accept", "application/json, text/event-stream")
	post.Header.Set("Mcp-Session-Id", session)
	post.Header.Set("Mcp-Protocol-Version", legacyVersion)
	post.Header.Set("X-Token", "desktop")
	resp, err := http.DefaultClient.Do(post)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	invs, err = second.inv.List(t.Context(), scope, domain.InvocationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var foreign []domain.ClientIdentity
	for _, inv := range invs {
		if inv.Client.Token == "desktop" {
			foreign = append(foreign, inv.Client)
		}
	}
	if len(foreign) != 1 || foreign[0] != (domain.ClientIdentity{Token: "desktop"}) {
		t.Errorf("call with another token: got clients %+v, want one with no name", foreign)
	}
	if clients := second.gateway.Clients(); len(clients) != 1 || clients[0].Calls != 1 {
		t.Errorf("clients after another token's call: got %+v, want the session's one call", clients)
	}

	// Revoking the token forgets the session for good.
	second.gateway.CloseToken("laptop")
	if _, err := second.db.GatewaySessionStore().GatewaySession(t.Context(), scope, session); !errors.Is(err, domain.ErrGatewaySessionNotFound) {
		t.Errorf("stored session after its token was revoked: got %v, want ErrGatewaySessionNotFound", err)
	}
}
