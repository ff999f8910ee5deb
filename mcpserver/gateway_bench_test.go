package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// The benchmarks compare the gateway with the same upstream called
// directly, in one run, so machine load affects both sides alike. They
// report figures (make bench prints them for the README) and never
// assert timings.

// echoCall is the call both sides make: the demo server's echo.
func echoCall(prefix string) mcp.CallToolRequest {
	req := mcp.CallToolRequest{}
	req.Params.Name = prefix + "echo"
	req.Params.Arguments = map[string]any{"message": "hello"}
	return req
}

func mustDial(b *testing.B, url string, legacy bool) *client.Client {
	b.Helper()
	c, err := dialURL(context.Background(), url, "bench", legacy)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	return c
}

func timedCall(b *testing.B, c *client.Client, req mcp.CallToolRequest) time.Duration {
	start := time.Now()
	res, err := c.CallTool(context.Background(), req)
	d := time.Since(start)
	if err != nil {
		b.Fatal(err)
	}
	if res.IsError {
		b.Fatalf("tool error: %s", resultText(res))
	}
	return d
}

// percentile returns the p-th percentile (nearest rank) of sorted, in µs.
func percentile(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := max(int(math.Ceil(p*float64(len(sorted))))-1, 0)
	return float64(sorted[i]) / float64(time.Microsecond)
}

func reportPercentiles(b *testing.B, side string, ds []time.Duration) (p50 float64) {
	slices.Sort(ds)
	p50 = percentile(ds, 0.50)
	b.ReportMetric(p50, side+"-p50-µs")
	b.ReportMetric(percentile(ds, 0.90), side+"-p90-µs")
	b.ReportMetric(percentile(ds, 0.99), side+"-p99-µs")
	return p50
}

// BenchmarkGatewayCallLatency: sequential tools/call of the demo server's
// echo, alternately direct (mcp-go client → demo server over streamable
// HTTP) and through /mcp/demo (the same client → gateway → invocation
// service with its SQLite history → mcpclient → the same demo server).
// Each op is one call on each side; the added-p50 is the difference. The
// memory-history variant keeps invocations in memory instead of SQLite.
func BenchmarkGatewayCallLatency(b *testing.B) {
	for _, era := range []struct {
		name   string
		legacy bool
	}{{"legacy", true}, {"2026-07-28", false}} {
		b.Run(era.name, func(b *testing.B) { benchLatency(b, newStack(b), era.legacy) })
	}
	b.Run("legacy-memory-history", func(b *testing.B) {
		benchLatency(b, newStackWith(b, domaintest.NewInvocationStore()), true)
	})
}

// benchLatency measures s's gateway against its upstream, one call on
// each side per op.
func benchLatency(b *testing.B, s *stack, legacy bool) {
	direct := mustDial(b, s.upstream.URL+"/mcp", legacy)
	via := mustDial(b, s.srv.URL+"/mcp/demo", legacy)
	req := echoCall("")
	// Warm both paths (connections, first-call allocations).
	for range 20 {
		timedCall(b, direct, req)
		timedCall(b, via, req)
	}
	var ds, gs []time.Duration
	for b.Loop() {
		ds = append(ds, timedCall(b, direct, req))
		gs = append(gs, timedCall(b, via, req))
	}
	d50 := reportPercentiles(b, "direct", ds)
	g50 := reportPercentiles(b, "gateway", gs)
	b.ReportMetric(g50-d50, "added-p50-µs")
}

// BenchmarkGatewayThroughput: 32 clients call at once, first all directly
// and then all through /mcp/demo; each op is one call on each side. The
// memory-history variant keeps invocations in memory instead of SQLite,
// showing how much of the gap is the history's disk writes.
func BenchmarkGatewayThroughput(b *testing.B) {
	b.Run("sqlite-history", func(b *testing.B) { benchThroughput(b, newStack(b)) })
	b.Run("memory-history", func(b *testing.B) { benchThroughput(b, newStackWith(b, domaintest.NewInvocationStore())) })
}

func benchThroughput(b *testing.B, s *stack) {
	// run returns the calls per second and the process's CPU time per
	// call (client, gateway and server together).
	run := func(url string) (float64, float64) {
		clients := make([]*client.Client, loadClients)
		for i := range clients {
			clients[i] = mustDial(b, url, true)
		}
		req := echoCall("")
		var next atomic.Int64
		var wg sync.WaitGroup
		start, cpu := time.Now(), processCPU()
		for _, c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= int64(b.N) {
					res, err := c.CallTool(context.Background(), req)
					if err != nil || res.IsError {
						b.Errorf("call: %v", err)
						return
					}
				}
			}()
		}
		wg.Wait()
		perCall := float64(processCPU()-cpu) / float64(time.Microsecond) / float64(b.N)
		return float64(b.N) / time.Since(start).Seconds(), perCall
	}
	b.ResetTimer()
	direct, directCPU := run(s.upstream.URL + "/mcp")
	via, viaCPU := run(s.srv.URL + "/mcp/demo")
	b.ReportMetric(direct, "direct-calls/s")
	b.ReportMetric(via, "gateway-calls/s")
	b.ReportMetric(100*via/direct, "gateway-%-of-direct")
	b.ReportMetric(directCPU, "direct-cpu-µs/call")
	b.ReportMetric(viaCPU, "gateway-cpu-µs/call")
}

// BenchmarkGatewayListTools: tools/list through /mcp of 50 connected
// servers with 100 tools each (fake upstreams: only the gateway's work is
// measured). ns/op is one client's full listing.
func BenchmarkGatewayListTools(b *testing.B) {
	const servers, tools = 50, 100
	var caps domain.Capabilities
	for i := range tools {
		name := fmt.Sprintf("tool_%03d", i)
		schema := `{"type":"object","properties":{"path":{"type":"string","description":"Where"},"limit":{"type":"integer","minimum":1}},"required":["path"]}`
		caps.Tools = append(caps.Tools, domain.Tool{Name: name, Description: "Does thing " + name, InputSchema: []byte(schema),
			Raw: []byte(`{"name":"` + name + `","description":"Does thing ` + name + `","inputSchema":` + schema + `,"annotations":{"readOnlyHint":true}}`)})
	}
	conn := &domaintest.AutoConnector{Caps: caps}
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{Connector: conn, Scope: scope}})
	b.Cleanup(func() { _ = fleet.Close(context.Background()) })
	var cfgs []domain.ServerConfig
	for i := range servers {
		cfgs = append(cfgs, domain.ServerConfig{Name: fmt.Sprintf("srv%02d", i), Transport: domain.TransportStdio, Command: "true", ConnectTimeout: time.Minute})
	}
	if err := fleet.Attach(context.Background(), cfgs); err != nil {
		b.Fatal(err)
	}
	eventually(b, func() bool {
		for _, st := range fleet.Hub().List() {
			if st.State != domain.StateConnected {
				return false
			}
		}
		return len(fleet.Hub().List()) == servers
	})
	inv := domain.NewInvocations(domain.InvocationsOptions{Caller: fleet, Catalog: fleet, Store: domaintest.NewInvocationStore()})
	gw := mcpserver.New(mcpserver.Options{Fleet: fleet, Invocations: inv, Scope: scope, Version: "bench"})
	srv := newGatewayServer(b, gw)
	for _, era := range []struct {
		name   string
		legacy bool
	}{{"legacy", true}, {"2026-07-28", false}} {
		b.Run(era.name, func(b *testing.B) {
			c := mustDial(b, srv+"/mcp", era.legacy)
			for b.Loop() {
				res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Tools) != servers*tools {
					b.Fatalf("listed %d tools, want %d", len(res.Tools), servers*tools)
				}
			}
		})
	}
	b.Run("raw-http", func(b *testing.B) {
		// The gateway's share alone: the response is read, not decoded.
		hc := &http.Client{}
		id := post(b, hc, srv+"/mcp", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+legacyVersion+`","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
		post(b, hc, srv+"/mcp", id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		var size int
		for b.Loop() {
			size = len(post(b, hc, srv+"/mcp", id, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
		}
		b.ReportMetric(float64(size), "response-bytes")
	})
	b.Run("in-process", func(b *testing.B) {
		// The gateway's work alone, without the network: the request is
		// served straight into a writer that only counts the bytes.
		hc := &http.Client{}
		id := post(b, hc, srv+"/mcp", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+legacyVersion+`","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
		post(b, hc, srv+"/mcp", id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		h := gw.Aggregated()
		cpu := processCPU()
		for b.Loop() {
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Session-Id", id)
			req.Header.Set("Mcp-Protocol-Version", legacyVersion)
			w := &countingWriter{header: http.Header{}}
			h.ServeHTTP(w, req)
			if w.code != http.StatusOK || w.n < servers*tools*100 {
				b.Fatalf("got %d, %d bytes", w.code, w.n)
			}
		}
		b.ReportMetric(float64(processCPU()-cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	})
	b.Run("refresh", func(b *testing.B) {
		// Rebuilding every list after a change (a reload, a reconnect).
		cpu := processCPU()
		for b.Loop() {
			gw.Refresh()
		}
		b.ReportMetric(float64(processCPU()-cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	})
}

// countingWriter is an http.ResponseWriter that keeps only the status
// and the number of bytes written.
type countingWriter struct {
	header http.Header
	code   int
	n      int
}

func (w *countingWriter) Header() http.Header { return w.header }
func (w *countingWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.n += len(p)
	return len(p), nil
}

func (w *countingWriter) Flush() {}

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
