package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// rssBenchServers is how many stdio servers the RSS benchmark connects:
// a team's whole catalogue on one machine.
const rssBenchServers = 200

// BenchmarkStdioServersRSS runs the built switchboard as a child process
// with 200 demo servers (each its own stdio child) and reports rss-MB, the
// resident memory of the switchboard process alone, read from
// /proc/<pid>/status (VmRSS) once all 200 are connected. The servers are
// separate processes, so their memory is not counted. Setup happens once;
// each loop re-reads VmRSS and the last reading is reported (1 MB =
// 1,000,000 bytes), beside peak-rss-MB, the process's high-water mark
// (VmHWM), which the burst of 200 handshakes sets.
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
	sb := startForBench(b, dir, "--settings", settings)
	sb.awaitConnected(b, n)
	b.Logf("%d stdio servers connected %v after start", n, time.Since(start).Round(time.Millisecond))

	var rss, peak uint64
	for b.Loop() {
		rss, peak = residentBytes(b, sb.cmd.Process.Pid)
	}
	b.ReportMetric(float64(rss)/1e6, "rss-MB")
	b.ReportMetric(float64(peak)/1e6, "peak-rss-MB")
}

// benchProc is one switchboard started by a benchmark.
type benchProc struct {
	cmd   *exec.Cmd
	url   string
	token string
	logs  *lineLog
}

// startForBench starts switchboard on a loopback port 0 with data as its
// data and project directory, and stops it with SIGTERM at cleanup.
func startForBench(b *testing.B, data string, args ...string) *benchProc {
	b.Helper()
	home := b.TempDir()
	cmd := exec.Command(binary, append([]string{"--addr", "127.0.0.1:0", "--data", data, "--project", data}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	p := &benchProc{cmd: cmd, logs: &lineLog{}}
	cmd.Stderr = p.logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				b.Errorf("switchboard exited with %v after SIGTERM, want 0", err)
			}
		case <-time.After(patience):
			_ = cmd.Process.Kill()
			b.Errorf("switchboard ignored SIGTERM")
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	const prefix = "switchboard listening on "
	if err != nil || !strings.HasPrefix(line, prefix) {
		b.Fatalf("first stdout line %q (%v), want %q...; log:\n%s", line, err, prefix, p.logs)
	}
	base, token, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, prefix)), "/?token=")
	if !ok {
		b.Fatalf("listening line %q: want http://HOST:PORT/?token=<token>", line)
	}
	p.url, p.token = base, token
	return p
}

// awaitConnected follows the event stream until n servers are connected
// at once, or fails after patience.
func (p *benchProc) awaitConnected(b *testing.B, n int) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url+handlers.PathEvents, nil)
	req.Header.Set("Authorization", "Bearer "+p.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatalf("event stream: %v", err)
	}
	defer resp.Body.Close()
	connected := map[string]bool{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	event := ""
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			event = name
			continue
		}
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || event != "status" {
			continue
		}
		var s handlers.StatusDTO
		if err := json.Unmarshal([]byte(data), &s); err != nil {
			b.Fatalf("bad event %q: %v", data, err)
		}
		if s.State == "connected" {
			connected[s.ServerName] = true
		} else {
			delete(connected, s.ServerName)
		}
		if len(connected) == n {
			return
		}
	}
	b.Fatalf("%d of %d servers connected within %v; log:\n%s", len(connected), n, patience, p.logs)
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
