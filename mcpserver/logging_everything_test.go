package mcpserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/mcpclient"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// everythingEntry is npm's server-everything, installed by npm ci in e2e/.
const everythingEntry = "../e2e/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

// realFixture serves a real fleet of real servers through mcpclient.
func realFixture(t *testing.T, cfgs ...domain.ServerConfig) *fixture {
	t.Helper()
	feed := domain.NewServerNotifications()
	f := &fixture{store: domaintest.NewInvocationStore()}
	f.fleet = domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: mcpclient.New(mcpclient.Options{Notifications: feed.Publish}),
		Store:     domaintest.NewStore(), Scope: scope,
	}})
	f.inv = domain.NewInvocations(domain.InvocationsOptions{Caller: f.fleet, Catalog: f.fleet, Store: f.store})
	f.gateway = mcpserver.New(mcpserver.Options{Fleet: f.fleet, Invocations: f.inv, Scope: scope, Version: "test", Notifications: feed, Debounce: time.Millisecond})
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp/{server}", func(w http.ResponseWriter, r *http.Request) {
		h, ok := f.gateway.Server(r.PathValue("server"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
	mux.Handle("/mcp", f.gateway.Aggregated())
	f.srv = httptest.NewServer(mux)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f.gateway.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		cctx, ccancel := context.WithTimeout(context.Background(), patience)
		defer ccancel()
		f.gateway.Close(cctx)
		f.srv.Close()
		_ = f.inv.Close(cctx)
		if err := f.fleet.Close(cctx); err != nil {
			t.Errorf("close fleet: %v", err)
		}
	})
	if err := f.fleet.Attach(t.Context(), cfgs); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range cfgs {
		waitFor(t, func() bool {
			st, err := f.fleet.Status(cfg.Name)
			return err == nil && st.State == domain.StateConnected
		})
	}
	f.gateway.Refresh()
	return f
}

// everythingStdio returns server-everything's config; without it, or
// without node, the test fails on CI and is skipped elsewhere.
func everythingStdio(t *testing.T) domain.ServerConfig {
	t.Helper()
	path, err := filepath.Abs(everythingEntry)
	if err == nil {
		_, err = os.Stat(path)
	}
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		msg := "server-everything is not installed (run npm ci in e2e/) or node is missing: " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return domain.ServerConfig{Name: "everything", Transport: domain.TransportStdio, Command: "node",
		Args: []string{path, "stdio"}, AutoReconnect: true, ConnectTimeout: time.Minute}
}

// TestEverythingLogsReachTheClient: server-everything's simulated logging
// reaches a client of /mcp/everything that asked for debug, through a
// real mcpclient session and logging/setLevel upstream.
func TestEverythingLogsReachTheClient(t *testing.T) {
	f := realFixture(t, everythingStdio(t))
	heard := f.logListener(t, "/mcp/everything", mcp.LoggingLevelDebug)
	c := f.dial(t, "/mcp/everything", true)
	if text, isErr := callText(t, c, "toggle-simulated-logging", nil); isErr {
		t.Fatalf("toggle: %s", text)
	}
	// The server also logs what it hears from its client (the roots
	// Switchboard answers with), so the simulated messages may come second.
	for i := 0; ; i++ {
		p := next(t, heard)
		if s, ok := p.Data.(string); ok && strings.Contains(s, "message") {
			break
		}
		if i == 3 {
			t.Fatalf("got %+v, want one of server-everything's simulated log messages", p)
		}
	}
	// Stop the server's timer.
	if text, isErr := callText(t, c, "toggle-simulated-logging", nil); isErr {
		t.Fatalf("toggle off: %s", text)
	}
}
