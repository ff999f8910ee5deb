package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

type tokenKey struct{}

// tokenGateway is a second gateway over the fixture's fleet whose
// requests carry the token name of their X-Token header, as the HTTP
// layer's authentication would put it in the context.
func tokenGateway(t *testing.T, f *fixture) (*mcpserver.Gateway, string) {
	t.Helper()
	gw := mcpserver.New(mcpserver.Options{Fleet: f.fleet, Invocations: f.inv, Scope: scope, Clock: f.clock, Version: "test",
		TokenName: func(ctx context.Context) string { s, _ := ctx.Value(tokenKey{}).(string); return s }})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), tokenKey{}, r.Header.Get("X-Token"))
		gw.Aggregated().ServeHTTP(w, r.WithContext(ctx))
	}))
	t.Cleanup(func() {
		gw.Close(context.Background())
		srv.Close()
	})
	return gw, srv.URL
}

func dialAs(t *testing.T, url, token, name string, legacy bool) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPHeaders(map[string]string{"X-Token": token}))
	if err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	if legacy {
		opts = append(opts, client.WithProtocolVersion(legacyVersion))
	}
	c := client.NewClient(tr, opts...)
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "9.9"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestGatewayListsSessionsAndIdentities(t *testing.T) {
	f := newFixture(t)
	sess := f.connect(t, "alpha", echoCaps("alpha"))
	sess.OnCall(echoing("alpha"))
	gw, url := tokenGateway(t, f)
	legacy := dialAs(t, url, "laptop", "claude-code", true)
	modern := dialAs(t, url, "ci", "new-client", false)
	for _, c := range []*client.Client{legacy, modern} {
		req := mcp.CallToolRequest{}
		req.Params.Name = "alpha__echo"
		if _, err := c.CallTool(t.Context(), req); err != nil {
			t.Fatal(err)
		}
	}
	got := gw.Clients()
	if len(got) != 2 {
		t.Fatalf("got %+v, want one session and one identity", got)
	}
	s, id := got[0], got[1]
	if !s.Legacy || s.SessionID == "" || s.Client != (domain.ClientIdentity{Name: "claude-code", Version: "9.9", Token: "laptop"}) || s.Calls != 1 || s.Endpoint != "/mcp" {
		t.Errorf("legacy session: got %+v", s)
	}
	if id.Legacy || id.Client != (domain.ClientIdentity{Name: "new-client", Version: "9.9", Token: "ci"}) || id.Calls != 1 || id.Since.IsZero() {
		t.Errorf("2026-07-28 identity: got %+v", id)
	}
}

func TestRevokedTokenLosesItsSessionsAndCalls(t *testing.T) {
	f := newFixture(t)
	sess := f.connect(t, "alpha", echoCaps("alpha"))
	started := make(chan struct{}, 1)
	sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	gw, url := tokenGateway(t, f)
	revoked := dialAs(t, url, "laptop", "claude-code", true)
	kept := dialAs(t, url, "desk", "cursor", true)
	done := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "alpha__echo"
		res, err := revoked.CallTool(context.Background(), req)
		if err == nil && !res.IsError {
			err = errUnexpectedSuccess
		}
		done <- err
	}()
	select {
	case <-started:
	case <-timeout():
		t.Fatal("the call never reached the server")
	}
	gw.CloseToken("laptop")
	select {
	case <-done:
	case <-timeout():
		t.Fatal("the revoked token's call is still running")
	}
	for _, c := range gw.Clients() {
		if c.Client.Token == "laptop" {
			t.Errorf("revoked token still listed: %+v", c)
		}
	}
	if len(gw.Clients()) != 1 {
		t.Errorf("got %+v, want the other token's session kept", gw.Clients())
	}
	if err := kept.Ping(t.Context()); err != nil {
		t.Errorf("the other token's session: %v", err)
	}
}

var errUnexpectedSuccess = errorString("the call succeeded")

type errorString string

func (e errorString) Error() string { return string(e) }

func timeout() <-chan time.Time { return time.After(patience) }
