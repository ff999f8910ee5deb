package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// The memory benchmarks measure what one large message costs Switchboard's
// process (the servers run as subprocesses, so only the client side
// counts): the peak of live heap and of resident memory above the level
// before it, and the heap still held after the call and a GC. Run them with
//
//	go test -run '^$' -bench Memory -benchtime 3x ./mcpclient/
//
// Figures vary with the machine and the GC's timing; they are reported, not
// asserted.

// BenchmarkMemoryResult30MB calls a stdio tool whose result is a 30 MB text.
func BenchmarkMemoryResult30MB(b *testing.B) {
	s, err := mcpclient.New(mcpclient.Options{}).Connect(context.Background(), bulkStdio(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	args := json.RawMessage(`{"bytes": 30000000}`)
	measureMemory(b, func() {
		out, err := s.CallTool(context.Background(), "bulk", args, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(out) < 30e6 {
			b.Fatalf("result of %d bytes, want 30 MB", len(out))
		}
	})
}

// BenchmarkMemoryEndlessLine connects to a server that writes one line
// without end, which is cut at the default limit of 32 MiB.
func BenchmarkMemoryEndlessLine(b *testing.B) {
	dir := b.TempDir()
	c := mcpclient.New(mcpclient.Options{})
	measureMemory(b, func() {
		cfg, _ := endlessStdio(dir)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s, err := c.Connect(ctx, cfg, nil)
		if err == nil {
			_ = s.Close()
			b.Fatal("Connect succeeded, want the line cut at the limit")
		}
		if domain.Categorize(err) != domain.CategoryProtocol {
			b.Fatalf("Connect: %v, want a protocol error", err)
		}
	})
}

// measureMemory runs op b.N times and reports the largest rise of live heap
// and of resident memory during one run, and the heap still held after it.
func measureMemory(b *testing.B, op func()) {
	b.Helper()
	var peakHeap, peakRSS, retained uint64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		runtime.GC()
		debug.FreeOSMemory() // so that the RSS rise is not hidden by pages kept from the last run
		heap0 := heapLive()
		rss0 := resetPeakRSS(b)
		sampler := sampleHeap()
		op()
		peak := sampler.stop()
		peakHeap = max(peakHeap, above(peak, heap0))
		peakRSS = max(peakRSS, above(peakResidentBytes(b), rss0))
		// Two cycles: encoding/json keeps its buffers in a sync.Pool, whose
		// objects survive one GC in the pool's victim cache.
		runtime.GC()
		runtime.GC()
		retained = max(retained, above(heapLive(), heap0))
	}
	b.StopTimer()
	b.ReportMetric(float64(peakHeap)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(peakRSS)/1e6, "peak-RSS-MB")
	b.ReportMetric(float64(retained)/1e6, "retained-heap-MB")
}

func above(x, base uint64) uint64 {
	if x < base {
		return 0
	}
	return x - base
}

const heapObjects = "/memory/classes/heap/objects:bytes"

// heapLive reads the bytes of heap objects, live or not yet swept, without
// stopping the world as ReadMemStats would.
func heapLive() uint64 {
	s := []metrics.Sample{{Name: heapObjects}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// heapSampler polls heapLive on its own goroutine and keeps the highest.
type heapSampler struct {
	done chan struct{}
	wg   sync.WaitGroup
	peak uint64
}

func sampleHeap() *heapSampler {
	h := &heapSampler{done: make(chan struct{}), peak: heapLive()}
	h.wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			h.peak = max(h.peak, heapLive())
			select {
			case <-tick.C:
			case <-h.done:
				return
			}
		}
	})
	return h
}

func (h *heapSampler) stop() uint64 {
	close(h.done)
	h.wg.Wait()
	return max(h.peak, heapLive())
}

// resetPeakRSS resets the kernel's high-water mark of resident memory for
// this process and returns the resident memory now.
func resetPeakRSS(b *testing.B) uint64 {
	b.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("cannot reset the peak RSS: %v", err)
	}
	return procStatus(b, "VmRSS:")
}

func peakResidentBytes(b *testing.B) uint64 { return procStatus(b, "VmHWM:") }

// procStatus returns a field of /proc/self/status in bytes.
func procStatus(b *testing.B, field string) uint64 {
	b.Helper()
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for line := range bytes.Lines(raw) {
		rest, ok := bytes.CutPrefix(line, []byte(field))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		kb, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		return kb << 10
	}
	b.Fatalf("no %s in /proc/self/status", field)
	return 0
}
