package mcpserver_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// newGatewayServer serves gw at /mcp and /mcp/{server} and returns its URL.
func newGatewayServer(b *testing.B, gw *mcpserver.Gateway) string {
	mux := http.NewServeMux()
	mux.Handle("/mcp", gw.Aggregated())
	mux.HandleFunc("/mcp/{server}", func(w http.ResponseWriter, r *http.Request) {
		h, ok := gw.Server(r.PathValue("server"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(mux)
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		gw.Close(ctx)
		ts.Close()
	})
	return ts.URL
}

// BenchmarkGatewaySessionMemory: each op opens one more legacy session on
// /mcp (initialize, then notifications/initialized, as a client does) and
// keeps it open; bytes-per-session is the live heap it adds. No session
// may start an upstream: the fleet's one connection serves them all.
func BenchmarkGatewaySessionMemory(b *testing.B) {
	s := newStack(b)
	url := s.srv.URL + "/mcp"
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	sessions := make([]string, 0, b.N)
	open := func() string {
		id := post(b, hc, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+legacyVersion+`","capabilities":{},"clientInfo":{"name":"mem","version":"1"}}}`)
		post(b, hc, url, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		return id
	}
	sessions = append(sessions, open()) // warm: the first session builds shared state
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for b.Loop() {
		sessions = append(sessions, open())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(b.N), "bytes/session")
	if n, m := s.connects.Load(), s.upstreamSessions.Load(); n != 1 || m != 1 {
		b.Fatalf("%d sessions: upstream connects %d, demo server sessions %d; want 1 each", len(sessions), n, m)
	}
	// Every session still works, through the one upstream.
	for _, id := range []string{sessions[0], sessions[len(sessions)-1]} {
		if got := post(b, hc, url, id, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"demo__echo","arguments":{"message":"still here"}}}`); !strings.Contains(got, "still here") {
			b.Fatalf("session %s: got %s", id, got)
		}
	}
	runtime.KeepAlive(sessions)
}

// post sends one JSON-RPC message; for an initialize it returns the new
// session's ID, otherwise the response body.
func post(b *testing.B, hc *http.Client, url, session, body string) string {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", legacyVersion)
	}
	res, err := hc.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		b.Fatalf("%s: %d %s", body, res.StatusCode, data)
	}
	if session == "" {
		return res.Header.Get("Mcp-Session-Id")
	}
	return string(data)
}
