package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/jsonschema"
	"github.com/switchboard-mcp/switchboard/mcpclient"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// concurrentCallers is how many callers the -32-concurrent variants run
// at once: a team's agents calling together.
const concurrentCallers = 32

// BenchmarkToolCall measures what Switchboard adds to a tools/call: the
// same echo call on the same demo server (a real stdio child), once with a
// bare mcp-go client and once as an AI client's call through Switchboard
// (the supervised connection, the schema check, the SQLite history, the
// audit row committed before the result returns, and the live feed). Each
// reports the p50 and p99 of single calls, one caller at a time and 32 at
// once; ns/op is wall time per call, so under concurrency it is the
// inverse of throughput.
//
// Both sides speak the same protocol revision, since each costs the
// client differently (2026-07-28 puts the client's identity and
// capabilities in every request): the unprefixed pairs the revision
// Switchboard negotiates with the demo server by default, 2026-07-28, and
// the handshake-era- pair the 2025-11-25 handshake both ask for.
func BenchmarkToolCall(b *testing.B) {
	const modern, legacy = mcp.ProtocolVersion20260728, mcp.ProtocolVersion20251125
	direct := lazyCaller(func() (benchCall, func(), error) { return setupDirect(modern) })
	switchboard := lazyCaller(func() (benchCall, func(), error) { return setupSwitchboard(modern) })
	directLegacy := lazyCaller(func() (benchCall, func(), error) { return setupDirect(legacy) })
	switchboardLegacy := lazyCaller(func() (benchCall, func(), error) { return setupSwitchboard(legacy) })
	for _, l := range []*lazy{direct, switchboard, directLegacy, switchboardLegacy} {
		defer l.close()
	}
	b.Run("direct-mcp-go", func(b *testing.B) { measureCalls(b, 1, direct.get(b)) })
	b.Run("switchboard", func(b *testing.B) { measureCalls(b, 1, switchboard.get(b)) })
	b.Run("direct-mcp-go-32-concurrent", func(b *testing.B) { measureCalls(b, concurrentCallers, direct.get(b)) })
	b.Run("switchboard-32-concurrent", func(b *testing.B) { measureCalls(b, concurrentCallers, switchboard.get(b)) })
	b.Run("handshake-era-direct-mcp-go", func(b *testing.B) { measureCalls(b, 1, directLegacy.get(b)) })
	b.Run("handshake-era-switchboard", func(b *testing.B) { measureCalls(b, 1, switchboardLegacy.get(b)) })
}

// benchCall makes one echo call and reports its failure.
type benchCall func(ctx context.Context) error

// lazy holds a caller set up on first use and shared by the sub-benchmarks
// (each runs several times with growing b.N; a server started per round
// would dominate the run).
type lazy struct {
	once  sync.Once
	setup func() (benchCall, func(), error)
	call  benchCall
	stop  func()
	err   error
}

func lazyCaller(setup func() (benchCall, func(), error)) *lazy { return &lazy{setup: setup} }

func (l *lazy) get(b *testing.B) benchCall {
	l.once.Do(func() { l.call, l.stop, l.err = l.setup() })
	if l.err != nil {
		b.Fatal(l.err)
	}
	return l.call
}

func (l *lazy) close() {
	if l.stop != nil {
		l.stop()
	}
}

// measureCalls makes b.N calls from callers goroutines at once and
// reports the p50 and p99 of their latencies.
func measureCalls(b *testing.B, callers int, call benchCall) {
	ctx := context.Background()
	// A few calls first, so that neither side's first call (connection
	// set-up, prepared statements) lands in the percentiles.
	for range 3 {
		if err := call(ctx); err != nil {
			b.Fatal(err)
		}
	}
	took := make([]time.Duration, b.N)
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	b.ResetTimer()
	for range min(callers, b.N) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(took) {
					return
				}
				t0 := time.Now()
				if err := call(ctx); err != nil {
					failed.CompareAndSwap(nil, err)
					return
				}
				took[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	slices.Sort(took)
	b.ReportMetric(microseconds(percentile(took, 50)), "p50-µs")
	b.ReportMetric(microseconds(percentile(took, 99)), "p99-µs")
}

// percentile is the nearest-rank p-th percentile of sorted.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[max(i-1, 0)]
}

func microseconds(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

var echoArgs = map[string]any{"message": "hello"}

// setupDirect starts the demo server under a bare mcp-go client that
// asks for version, as Switchboard's connection does.
func setupDirect(version string) (benchCall, func(), error) {
	c, err := client.NewStdioMCPClient(binary, nil, "demo-server")
	if err != nil {
		return nil, nil, err
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
	if _, err := c.Initialize(context.Background(), init); err != nil {
		c.Close()
		return nil, nil, err
	}
	if got := c.ProtocolVersion(); got != version {
		c.Close()
		return nil, nil, fmt.Errorf("the direct client speaks %s, want %s", got, version)
	}
	call := func(ctx context.Context) error {
		req := mcp.CallToolRequest{}
		req.Params.Name = "echo"
		req.Params.Arguments = echoArgs
		res, err := c.CallTool(ctx, req)
		if err == nil && res.IsError {
			err = fmt.Errorf("echo failed: %v", res.Content)
		}
		return err
	}
	return call, func() { c.Close() }, nil
}

// setupSwitchboard supervises the demo server and calls it as the gateway
// does for an AI client, asking for version: CallWhole returns once the
// final state and its audit row are durable. A dashboard page follows the
// feed meanwhile.
func setupSwitchboard(version string) (benchCall, func(), error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "switchboard-bench-")
	if err != nil {
		return nil, nil, err
	}
	stops := []func(){func() { os.RemoveAll(dir) }}
	stop := func() {
		for _, s := range slices.Backward(stops) {
			s()
		}
	}
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	stops = append(stops, func() { db.Close() })
	scope := domain.Scope{User: domain.LocalUser, Workspace: "bench"}
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: mcpclient.New(mcpclient.Options{ProtocolVersion: version}), Scope: scope}})
	stops = append(stops, func() { fleet.Close(ctx) })
	sub := fleet.Hub().Subscribe()
	defer sub.Close()
	if err := fleet.Attach(ctx, []domain.ServerConfig{{Name: "demo", Transport: domain.TransportStdio, Command: binary,
		Args: []string{"demo-server"}, AutoReconnect: true, ConnectTimeout: 30 * time.Second}}); err != nil {
		stop()
		return nil, nil, err
	}
	if err := awaitConnected(sub); err != nil {
		stop()
		return nil, nil, err
	}
	if st, err := fleet.Status("demo"); err != nil || st.ProtocolVersion != version {
		stop()
		return nil, nil, fmt.Errorf("switchboard speaks %q to the demo server (%v), want %s", st.ProtocolVersion, err, version)
	}
	svc := domain.NewInvocations(domain.InvocationsOptions{Caller: fleet, Catalog: fleet, Store: db.InvocationStore(),
		Validator: jsonschema.New()})
	stops = append(stops, func() { svc.Close(ctx) })
	page := svc.Feed().Subscribe(scope)
	pageDone := make(chan struct{})
	pageCtx, endPage := context.WithCancel(ctx)
	go func() { // a dashboard page reading every change, as a real one does
		defer close(pageDone)
		for {
			if _, err := page.Next(pageCtx); err != nil {
				return
			}
		}
	}()
	stops = append(stops, func() { endPage(); <-pageDone; page.Close() })
	raw, _ := json.Marshal(echoArgs)
	call := func(ctx context.Context) error {
		inv, _, err := svc.CallWhole(ctx, domain.CallRequest{Scope: scope, Server: "demo", Tool: "echo",
			Arguments: raw, Source: domain.SourceGateway, Forwarded: true})
		if err == nil && inv.Status != domain.InvocationSuccess {
			err = fmt.Errorf("invocation %s: %s %s", inv.ID, inv.Status, inv.Error)
		}
		return err
	}
	return call, stop, nil
}

func awaitConnected(sub *domain.Subscription) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		batch, err := sub.Next(ctx)
		if err != nil {
			return fmt.Errorf("demo server never connected: %w", err)
		}
		for _, s := range batch {
			if s.State == domain.StateConnected {
				return nil
			}
		}
	}
}
