package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// clientToken is the client token the tests' bridges present.
const clientToken = "client-token-0123456789abcdefghijklmnopqrstuvwxyz"

// testMCP is a real mcp-go streamable HTTP server standing in for
// Switchboard: the bridge speaks the transport and must not care who
// serves it. Its handler can be swapped for a fresh server's, which
// forgets every session, as a restarted Switchboard would.
type testMCP struct {
	srv     *httptest.Server
	mcp     atomic.Pointer[server.MCPServer]
	handler atomic.Pointer[http.Handler]
	name    string
	release chan struct{} // closing it ends every call of the tool "wait"
	cancel  context.CancelFunc
}

func newTestMCP(t *testing.T, name string) *testMCP {
	t.Helper()
	m := &testMCP{name: name, release: make(chan struct{})}
	m.swap(name)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+clientToken {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		(*m.handler.Load()).ServeHTTP(w, r)
	})
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	m.srv = httptest.NewUnstartedServer(mux)
	m.srv.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	m.srv.Start()
	t.Cleanup(m.close)
	return m
}

// swap replaces the MCP server behind the endpoint with a fresh one
// called name, which knows none of the old one's sessions.
func (m *testMCP) swap(name string) {
	s := server.NewMCPServer(name, "1.0.0", server.WithToolCapabilities(true), server.WithRoots())
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(name + ":" + req.GetString("text", "")), nil
	})
	s.AddTool(mcp.NewTool("roots"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := s.RequestRoots(ctx, mcp.ListRootsRequest{})
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		var uris []string
		for _, r := range res.Roots {
			uris = append(uris, r.URI)
		}
		return mcp.NewToolResultText(strings.Join(uris, ",")), nil
	})
	s.AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-m.release:
			return mcp.NewToolResultText("released"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	var h http.Handler = server.NewStreamableHTTPServer(s, server.WithStateful(true),
		server.WithStreamableHTTPLogger(slog.New(slog.DiscardHandler)))
	m.mcp.Store(s)
	m.handler.Store(&h)
}

// close ends every request first, an open event stream included, even
// one that arrives while it closes: otherwise httptest's Close would wait
// for it.
func (m *testMCP) close() {
	m.cancel()
	m.srv.CloseClientConnections()
	m.srv.Close()
}

// point writes the data directory's instance file naming m, as a running
// Switchboard does.
func (m *testMCP) point(t *testing.T, data string) {
	t.Helper()
	if err := writeInstance(data, instanceInfo{URL: m.srv.URL, PID: os.Getpid(), StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
}
