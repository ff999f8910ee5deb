package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
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

// stack is the gateway as `switchboard` runs it, minus the dashboard: a
// real fleet connected through mcpclient to the demo server served over
// streamable HTTP, the invocation service writing its history to SQLite,
// and the gateway behind a real HTTP listener. The load tests and the
// benchmarks share it, so the numbers describe what the tests prove.
type stack struct {
	demo     *server.MCPServer
	upstream *httptest.Server // the demo server at /mcp
	fleet    *domain.Fleet
	inv      *domain.Invocations
	gateway  *mcpserver.Gateway
	srv      *httptest.Server // the gateway at /mcp and /mcp/{server}
	blocker  *blocker

	connects         atomic.Int64 // the fleet's connect attempts
	upstreamSessions atomic.Int64 // POSTs reaching the demo server without a session: its initializes
}

// countingConnector counts connect attempts, so a test can prove that no
// client session or call ever starts an upstream of its own.
type countingConnector struct {
	domain.Connector
	n *atomic.Int64
}

func (c countingConnector) Connect(ctx context.Context, cfg domain.ServerConfig, stderr io.Writer) (domain.Session, error) {
	c.n.Add(1)
	return c.Connector.Connect(ctx, cfg, stderr)
}

func newStack(tb testing.TB) *stack { return newStackWith(tb, domain.InvocationStore(nil)) }

// newStackWith uses store for the invocation history instead of SQLite,
// so a benchmark can tell the history's share of a call's cost.
func newStackWith(tb testing.TB, store domain.InvocationStore) *stack {
	tb.Helper()
	s := &stack{demo: demoserver.New(demoserver.Options{}), blocker: newBlocker()}
	s.demo.AddTool(mcp.NewTool("load_progress",
		mcp.WithString("tag", mcp.Required()), mcp.WithNumber("steps", mcp.Required())), loadProgress)
	s.demo.AddTool(mcp.NewTool("load_block", mcp.WithString("tag", mcp.Required())), s.blocker.handle)
	up := server.NewStreamableHTTPServer(s.demo)
	s.upstream = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			s.upstreamSessions.Add(1)
		}
		up.ServeHTTP(w, r)
	}))
	tb.Cleanup(s.upstream.Close)

	ctx := context.Background()
	db, err := sqlite.Open(ctx, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	// The upstream session is pinned to the handshake era, whose one
	// session upstreamSessions counts; a 2026-07-28 upstream has none.
	upstream := mcpclient.New(mcpclient.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
	s.fleet = domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: countingConnector{upstream, &s.connects}, Scope: scope}})
	if store == nil {
		store = db.InvocationStore()
	}
	s.inv = domain.NewInvocations(domain.InvocationsOptions{Caller: s.fleet, Catalog: s.fleet, Store: store})
	s.gateway = mcpserver.New(mcpserver.Options{Fleet: s.fleet, Invocations: s.inv, Scope: scope, Version: "test"})
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.gateway.Aggregated())
	mux.HandleFunc("/mcp/{server}", func(w http.ResponseWriter, r *http.Request) {
		h, ok := s.gateway.Server(r.PathValue("server"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
	s.srv = httptest.NewServer(mux)
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		s.blocker.releaseAll()
		s.gateway.Close(ctx)
		s.srv.Close()
		_ = s.inv.Close(ctx)
		if err := s.fleet.Close(ctx); err != nil {
			tb.Errorf("close fleet: %v", err)
		}
	})

	if err := s.fleet.Attach(ctx, []domain.ServerConfig{{Name: "demo", Transport: domain.TransportHTTP,
		URL: s.upstream.URL + "/mcp", AutoReconnect: true, ConnectTimeout: 30 * time.Second}}); err != nil {
		tb.Fatal(err)
	}
	eventually(tb, func() bool {
		st, err := s.fleet.Status("demo")
		return err == nil && st.State == domain.StateConnected
	})
	s.gateway.Refresh()
	return s
}

// eventually waits for cond, polling; patience only bounds a failure.
func eventually(tb testing.TB, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatal("condition not met in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// dialURL connects an mcp-go client to url: legacy pins 2025-11-25 and
// keeps the GET stream open (progress may travel on it); otherwise the
// client negotiates 2026-07-28. It never calls Fatal, so goroutines may
// use it.
func dialURL(ctx context.Context, url, name string, legacy bool) (*client.Client, error) {
	topts := []transport.StreamableHTTPCOption{transport.WithHTTPLogger(slog.New(slog.DiscardHandler))}
	var copts []client.ClientOption
	if legacy {
		topts = append(topts, transport.WithContinuousListening())
		copts = append(copts, client.WithProtocolVersion(legacyVersion))
	}
	tr, err := transport.NewStreamableHTTP(url, topts...)
	if err != nil {
		return nil, err
	}
	c := client.NewClient(tr, copts...)
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("initialize %s: %w", url, err)
	}
	if want := !legacy; (c.ProtocolVersion() == "2026-07-28") != want {
		_ = c.Close()
		return nil, fmt.Errorf("%s negotiated %q", url, c.ProtocolVersion())
	}
	return c, nil
}

// resultText joins a result's text content.
func resultText(res *mcp.CallToolResult) string {
	var out string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			out += tc.Text
		}
	}
	return out
}

// loadProgress reports steps progress notifications whose message names
// the call's tag, then answers with the tag: a notification that reached
// the wrong client, or the right client under the wrong call, shows.
func loadProgress(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	tag := req.GetString("tag", "")
	steps := req.GetInt("steps", 1)
	if meta := req.Params.Meta; meta != nil && meta.ProgressToken != nil {
		if srv := server.ServerFromContext(ctx); srv != nil {
			for i := 1; i <= steps; i++ {
				_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
					"progressToken": meta.ProgressToken, "progress": i, "total": steps, "message": fmt.Sprintf("%s:%d", tag, i)})
			}
		}
	}
	return mcp.NewToolResultText(tag), nil
}

// blocker is a tool that holds every call until its context ends or the
// test releases it, recording which tags started and which were
// cancelled.
type blocker struct {
	release   chan struct{}
	once      sync.Once
	mu        sync.Mutex
	started   map[string]bool
	cancelled map[string]bool
}

func newBlocker() *blocker {
	return &blocker{release: make(chan struct{}), started: map[string]bool{}, cancelled: map[string]bool{}}
}

func (b *blocker) handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	tag := req.GetString("tag", "")
	b.mu.Lock()
	b.started[tag] = true
	b.mu.Unlock()
	select {
	case <-b.release:
		return mcp.NewToolResultText(tag), nil
	case <-ctx.Done():
		b.mu.Lock()
		b.cancelled[tag] = true
		b.mu.Unlock()
		return nil, ctx.Err()
	}
}

func (b *blocker) releaseAll() { b.once.Do(func() { close(b.release) }) }

func (b *blocker) counts() (started int, cancelled map[string]bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[string]bool, len(b.cancelled))
	for k := range b.cancelled {
		out[k] = true
	}
	return len(b.started), out
}
