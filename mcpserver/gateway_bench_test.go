package mcpserver_test

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain/domaintest"
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
