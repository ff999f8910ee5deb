package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// binary is switchboard built once for the tests that run it for real:
// as the supervisor and as the demo servers it supervises.
var binary string

func TestMain(m *testing.M) {
	os.Setenv("SWITCHBOARD_KEYCHAIN", "off") // never the developer's keychain
	dir, err := os.MkdirTemp("", "switchboard-cmd-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "switchboard")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build switchboard: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// patience bounds waits for things that happen within seconds; it only
// stops a broken test.
const patience = 60 * time.Second

// proc is one running switchboard.
type proc struct {
	t     testing.TB
	cmd   *exec.Cmd
	url   string // the base URL, without the sign-in token
	addr  string
	token string
	logs  *lineLog
}

// launch starts switchboard with args plus a loopback port 0 and waits for
// its listening line. The data directory doubles as the project, so two
// launches on one directory see the same scope.
func launch(t testing.TB, data string, args ...string) *proc {
	t.Helper()
	return launchEnv(t, data, nil, args...)
}

// launchEnv is launch with more environment variables (KEY=value).
func launchEnv(t testing.TB, data string, env []string, args ...string) *proc {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(binary, append([]string{"--addr", "127.0.0.1:0", "--data", data, "--project", data}, args...)...)
	cmd.Env = append(append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config")), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, logs: &lineLog{}}
	cmd.Stderr = p.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.stop() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	const prefix = "switchboard listening on "
	if err != nil || !strings.HasPrefix(line, prefix) {
		t.Fatalf("first stdout line %q (%v), want %q...; log:\n%s", line, err, prefix, p.logs)
	}
	link := strings.TrimSpace(strings.TrimPrefix(line, prefix))
	base, token, ok := strings.Cut(link, "/?token=")
	if !ok || len(token) < 32 {
		t.Fatalf("listening line %q: want http://HOST:PORT/?token=<token>", line)
	}
	p.url, p.token = base, token
	p.addr = strings.TrimPrefix(p.url, "http://")
	return p
}

// authorize adds the instance's access token, as every client must.
func (p *proc) authorize(req *http.Request) *http.Request {
	req.Header.Set("Authorization", "Bearer "+p.token)
	return req
}

// stop sends SIGTERM and waits for a clean exit.
func (p *proc) stop() {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			p.t.Errorf("switchboard exited with %v after SIGTERM, want 0; log:\n%s", err, p.logs)
		}
	case <-time.After(patience):
		_ = p.cmd.Process.Kill()
		p.t.Errorf("switchboard ignored SIGTERM; log:\n%s", p.logs)
	}
}

func (p *proc) do(method, path string) (int, []byte) {
	p.t.Helper()
	req, _ := http.NewRequest(method, p.url+path, nil)
	p.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

func (p *proc) status(name string) handlers.StatusDTO {
	p.t.Helper()
	code, body := p.do(http.MethodGet, handlers.ServerPath(handlers.PathServer, name))
	if code != http.StatusOK {
		p.t.Fatalf("GET %s: %d %s", name, code, body)
	}
	var s handlers.StatusDTO
	if err := json.Unmarshal(body, &s); err != nil {
		p.t.Fatal(err)
	}
	return s
}

// events follows the event stream and returns each status of name until
// stop says enough, or fails after patience.
func (p *proc) events(name string, stop func(handlers.StatusDTO) bool) []handlers.StatusDTO {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url+handlers.PathEvents, nil)
	p.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("event stream: %v", err)
	}
	defer resp.Body.Close()
	var seen []handlers.StatusDTO
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
			p.t.Fatalf("bad event %q: %v", data, err)
		}
		if s.ServerName != name {
			continue
		}
		seen = append(seen, s)
		if stop(s) {
			return seen
		}
	}
	p.t.Fatalf("%s: the awaited state never came; saw %s; log:\n%s", name, describe(seen), p.logs)
	return nil
}

// eventsOf opens the event stream, runs start once it is open, then hands
// each frame of the named event to done until it says enough, or fails
// after patience.
func (p *proc) eventsOf(event string, start func(), done func(data []byte) bool) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url+handlers.PathEvents, nil)
	p.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("event stream: %v", err)
	}
	defer resp.Body.Close()
	start()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	current := ""
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			current = name
			continue
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok && current == event && done([]byte(data)) {
			return
		}
	}
	p.t.Fatalf("no %s event ended the wait; log:\n%s", event, p.logs)
}

func describe(ss []handlers.StatusDTO) string {
	var b strings.Builder
	for _, s := range ss {
		fmt.Fprintf(&b, "[%s/%s", s.State, s.Phase)
		if s.Error != nil {
			fmt.Fprintf(&b, " %q", *s.Error)
		}
		b.WriteString("] ")
	}
	return b.String()
}

func isState(state string) func(handlers.StatusDTO) bool {
	return func(s handlers.StatusDTO) bool { return s.State == state }
}

// writeSettings writes a settings file with the given servers map.
func writeSettings(t *testing.T, servers map[string]any) string {
	t.Helper()
	data, err := json.MarshalIndent(map[string]any{"mcpServers": servers, "theme": "kept"}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func demoServer(extra ...string) map[string]any {
	return map[string]any{"command": binary, "args": append([]string{"demo-server"}, extra...)}
}

// lineLog collects a process's stderr for failure messages.
type lineLog struct {
	mu  sync.Mutex // guards buf
	buf strings.Builder
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
