package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// bulkServer is one connected server with one tool whose every call answers
// a fresh copy of result, as a transport would have read it.
type bulkServer struct {
	domain.TaskCaller // never used: the tool does not run as a task
	result            []byte
}

func (b *bulkServer) Status(server string) (domain.Status, error) {
	return domain.Status{ServerName: server, State: domain.StateConnected}, nil
}

func (b *bulkServer) Capabilities(string) (domain.Capabilities, error) {
	return domain.Capabilities{Tools: []domain.Tool{{Name: "bulk", InputSchema: []byte(`{"type":"object"}`)}}}, nil
}

func (b *bulkServer) Redactor(string) (domain.Redactor, error) { return domain.NewRedactor(), nil }

func (b *bulkServer) CallTool(context.Context, string, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
	return bytes.Clone(b.result), nil
}

func (b *bulkServer) CallTimeout(string) (time.Duration, error) { return time.Minute, nil }

// finishWriter is a page stream's response that signals each write
// showing a finished call.
type finishWriter struct {
	header   http.Header
	finished chan struct{}
	once     sync.Once
	started  chan struct{} // closed by the first write: the stream has subscribed
}

func (w *finishWriter) Header() http.Header { return w.header }
func (w *finishWriter) WriteHeader(int)     {}
func (w *finishWriter) Flush()              {}
func (w *finishWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.started) })
	if bytes.Contains(p, []byte(`data-status="success"`)) {
		select {
		case w.finished <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

// BenchmarkResultOpenPages measures what one call answering a 30 MB text
// costs the process while pages are open on the dashboard: the call runs
// through the invocation service into a real SQLite store, and every
// page's stream renders the finished call's row and card. It reports the
// largest rise of live heap and of resident memory during one call (until
// every page has written the finished card), and the heap still held
// after it once the store has committed it.
func BenchmarkResultOpenPages(b *testing.B) {
	for _, pages := range []int{1, 10} {
		b.Run(fmt.Sprintf("pages=%d", pages), func(b *testing.B) { benchResultOpenPages(b, pages) })
	}
}

func benchResultOpenPages(b *testing.B, pages int) {
	ctx := context.Background()
	svc, _ := bulkInvocations(b, 30_000_000)
	fleet := pageBenchFleet(b, 1, 12)
	done := make(chan struct{})
	e := handlers.New(handlers.Options{Fleet: fleet, Scope: testScope, Invocations: svc, Done: done,
		Heartbeat: time.Hour, Token: fixtureToken})
	writers := make([]*finishWriter, pages)
	var wg sync.WaitGroup
	for i := range writers {
		w := &finishWriter{header: http.Header{}, finished: make(chan struct{}, 1), started: make(chan struct{})}
		writers[i] = w
		req := authorize(httptest.NewRequest(http.MethodGet, handlers.PathPageEvents, nil))
		req.Host = "127.0.0.1:7391"
		wg.Go(func() { e.ServeHTTP(w, req) })
	}
	b.Cleanup(func() { close(done); wg.Wait() })
	for _, w := range writers {
		<-w.started
	}
	var peakHeap, peakRSS, retained uint64
	b.ResetTimer()
	for range b.N {
		heap0, stop := startMeasuring(b)
		inv, err := svc.Call(ctx, domain.CallRequest{Scope: testScope, Server: "server-000", Tool: "bulk"})
		if err != nil || inv.Status != domain.InvocationSuccess {
			b.Fatalf("call: %v, %s", err, inv.Status)
		}
		for _, w := range writers {
			select {
			case <-w.finished:
			case <-time.After(time.Minute):
				b.Fatal("a page never showed the finished call")
			}
		}
		heapRise, rssRise := stop()
		peakHeap, peakRSS = max(peakHeap, heapRise), max(peakRSS, rssRise)
		inv = domain.Invocation{}
		// The final state is committed with the writer's next batch;
		// listing waits for it, and what is retained is measured after.
		committed(b, svc)
		runtime.GC()
		runtime.GC()
		retained = max(retained, rise(liveHeap(), heap0))
	}
	b.StopTimer()
	b.ReportMetric(float64(peakHeap)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(peakRSS)/1e6, "peak-RSS-MB")
	b.ReportMetric(float64(retained)/1e6, "retained-heap-MB")
}

// BenchmarkPageOpenAfterLargeResults measures what opening the dashboard
// costs once five calls have each stored a 10 MB result (the store's cap):
// the page stream's first event, which lists the newest calls. It reports
// the largest rise of live heap and of resident memory until the list is
// written.
func BenchmarkPageOpenAfterLargeResults(b *testing.B) {
	ctx := context.Background()
	svc, srv := bulkInvocations(b, 12_000_000)
	for range 5 {
		if _, err := svc.Call(ctx, domain.CallRequest{Scope: testScope, Server: "server-000", Tool: "bulk"}); err != nil {
			b.Fatal(err)
		}
	}
	srv.result = nil // held only by the server, not by what is measured
	committed(b, svc)
	fleet := pageBenchFleet(b, 1, 12)
	done := make(chan struct{})
	b.Cleanup(func() { close(done) })
	e := handlers.New(handlers.Options{Fleet: fleet, Scope: testScope, Invocations: svc, Done: done,
		Heartbeat: time.Hour, Token: fixtureToken})
	var peakHeap, peakRSS uint64
	b.ResetTimer()
	for range b.N {
		_, stop := startMeasuring(b)
		reqCtx, cancel := context.WithCancel(ctx)
		w := &streamWriter{header: http.Header{}, writes: make(chan int, 16)}
		req := authorize(httptest.NewRequestWithContext(reqCtx, http.MethodGet, handlers.PathPageEvents, nil))
		req.Host = "127.0.0.1:7391"
		served := make(chan struct{})
		go func() { defer close(served); e.ServeHTTP(w, req) }()
		<-w.writes // the full state: statuses and the list of calls
		heapRise, rssRise := stop()
		peakHeap, peakRSS = max(peakHeap, heapRise), max(peakRSS, rssRise)
		cancel()
		<-served
	}
	b.StopTimer()
	b.ReportMetric(float64(peakHeap)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(peakRSS)/1e6, "peak-RSS-MB")
}

// startMeasuring collects, hands freed memory back and starts watching the
// live heap; it returns the live heap now and a stop that reports how far
// the live heap and the resident high-water mark rose meanwhile.
func startMeasuring(b *testing.B) (heap0 uint64, stop func() (heapRise, rssRise uint64)) {
	runtime.GC()
	debug.FreeOSMemory()
	heap0 = liveHeap()
	rss0 := resetResidentPeak(b)
	peak := sampleLiveHeap()
	return heap0, func() (uint64, uint64) {
		return rise(peak(), heap0), rise(procStatusBytes(b, "VmHWM:"), rss0)
	}
}

// committed returns once the store has committed every write handed to
// it: a listing waits for the writer's queue before it reads.
func committed(b *testing.B, svc *domain.Invocations) {
	if _, err := svc.List(context.Background(), testScope, domain.InvocationFilter{Limit: 1}); err != nil {
		b.Fatal(err)
	}
}

func rise(x, base uint64) uint64 {
	if x < base {
		return 0
	}
	return x - base
}

// liveHeap reads the bytes of heap objects without stopping the world.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// sampleLiveHeap polls liveHeap every millisecond until the returned
// function is called, which returns the highest seen.
func sampleLiveHeap() func() uint64 {
	var peak uint64
	quit, over := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, liveHeap())
			select {
			case <-tick.C:
			case <-quit:
				return
			}
		}
	}()
	return func() uint64 {
		close(quit)
		<-over
		return max(peak, liveHeap())
	}
}

// resetResidentPeak resets the kernel's high-water mark of this process's
// resident memory and returns the resident memory now.
func resetResidentPeak(b *testing.B) uint64 {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("cannot reset the peak RSS: %v", err)
	}
	return procStatusBytes(b, "VmRSS:")
}

// procStatusBytes reads one field of /proc/self/status, in bytes.
func procStatusBytes(b *testing.B, field string) uint64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for line := range bytes.Lines(raw) {
		if rest, ok := bytes.CutPrefix(line, []byte(field)); ok {
			kb, err := strconv.ParseUint(string(bytes.Fields(rest)[0]), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// bulkInvocations is an invocation service on a real SQLite file in
// b.TempDir() whose only tool answers with one text of size bytes, and
// that tool's server.
func bulkInvocations(b *testing.B, size int) (*domain.Invocations, *bulkServer) {
	db, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	text := strings.Repeat("0123456789abcdef", size/16)
	result, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	srv := &bulkServer{result: result}
	svc := domain.NewInvocations(domain.InvocationsOptions{Caller: srv, Catalog: srv, Store: db.InvocationStore()})
	b.Cleanup(func() { _ = svc.Close(context.Background()) })
	return svc, srv
}
