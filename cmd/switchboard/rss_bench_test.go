package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// rssBenchServers is how many stdio servers the RSS benchmark connects:
// a team's whole catalogue on one machine.
const rssBenchServers = 200

// rssSettle is how long the benchmark lets the process settle after the
// last handshake before reading its resident memory: the quiet time after
// which the startup burst is handed back, and as long again for the
// release itself on a loaded machine.
const rssSettle = 2*startupQuiet + time.Second

// BenchmarkStdioServersRSS runs the built switchboard as a child process
// with 200 demo servers (each its own stdio child) and reports rss-MB, the
// resident memory of the switchboard process alone, read from
// /proc/<pid>/status (VmRSS) once all 200 are connected and the process
// has had rssSettle to settle after the burst of handshakes (see
// startupMemory): the row is about a connected, idle fleet. The servers
// are separate processes, so their memory is not counted. Setup happens
// once; each loop re-reads VmRSS and the last reading is reported (1 MB =
// 1,000,000 bytes), beside connect-rss-MB, the reading at the moment the
// last server connected, peak-rss-MB, the process's high-water mark
// (VmHWM), which the burst sets, connect-s, the seconds from start until
// all were connected, and idle-max-rss-MB, the highest of the readings
// taken each second for 30 s after (the heap refills between collections).
func BenchmarkStdioServersRSS(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc/<pid>/status")
	}
	n := rssBenchServers
	if os.Getenv("SWITCHBOARD_BENCH_SMOKE") == "1" {
		// The smoke run only checks the benchmark still works.
		n = 10
	}
	servers := map[string]any{}
	for i := range n {
		name := fmt.Sprintf("demo-%03d", i)
		servers[name] = map[string]any{"command": binary, "args": []string{"demo-server", "--name", name}}
	}
	data, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	settings := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(settings, data, 0o600); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	sb := launch(b, dir, "--settings", settings)
	connected := map[string]bool{}
	sb.eventsOf("status", func() {}, func(data []byte) bool {
		var s handlers.StatusDTO
		if err := json.Unmarshal(data, &s); err != nil {
			b.Fatalf("bad event %q: %v", data, err)
		}
		if s.State == "connected" {
			connected[s.ServerName] = true
		} else {
			delete(connected, s.ServerName)
		}
		return len(connected) == n
	})
	connectedIn := time.Since(start)
	atConnect, _ := residentBytes(b, sb.cmd.Process.Pid)
	b.Logf("%d stdio servers connected %v after start", n, connectedIn.Round(time.Millisecond))
	time.Sleep(rssSettle)

	var rss, peak uint64
	for b.Loop() {
		rss, peak = residentBytes(b, sb.cmd.Process.Pid)
	}
	// Idle, the heap refills with the fleet's keep-alive traffic up to
	// the collector's goal before each collection; the highest reading
	// over a while is what the process costs most of the time.
	idle := rss
	for range idleSamples() {
		time.Sleep(time.Second)
		now, _ := residentBytes(b, sb.cmd.Process.Pid)
		idle = max(idle, now)
	}
	b.ReportMetric(float64(rss)/1e6, "rss-MB")
	b.ReportMetric(float64(idle)/1e6, "idle-max-rss-MB")
	b.ReportMetric(float64(atConnect)/1e6, "connect-rss-MB")
	b.ReportMetric(float64(peak)/1e6, "peak-rss-MB")
	b.ReportMetric(connectedIn.Seconds(), "connect-s")
}

// idleSamples is how many one-second readings follow the settled one: 30,
// or 1 in the smoke run.
func idleSamples() int {
	if os.Getenv("SWITCHBOARD_BENCH_SMOKE") == "1" {
		return 1
	}
	return 30
}

// residentBytes reads a process's own resident set now (VmRSS) and at its
// highest (VmHWM); both leave out its children.
func residentBytes(b *testing.B, pid int) (now, peak uint64) {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	field := func(name string) uint64 {
		for line := range strings.Lines(string(data)) {
			if v, ok := strings.CutPrefix(line, name); ok {
				kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				if err != nil {
					b.Fatalf("%s %q: %v", name, v, err)
				}
				return kb * 1024
			}
		}
		b.Fatalf("no %s in /proc/%d/status", name, pid)
		return 0
	}
	return field("VmRSS:"), field("VmHWM:")
}
