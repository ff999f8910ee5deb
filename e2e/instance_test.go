//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitLong bounds every wait on the real binary: generous, because a
// loaded 2-core machine runs browsers, Node and Go builds side by side.
const waitLong = 60 * time.Second

// instance is one running switchboard process with its own data
// directory, on a free port, followed through its event stream.
type instance struct {
	URL      string // the base URL, without the sign-in token
	Token    string // the access token from the sign-in link it printed
	Settings string // the settings file it reads; empty in demo mode
	Data     string // its SQLite directory
	Home     string // its HOME (and XDG dirs, and project directory)
	pid      int
	events   *eventLog
}

// servers is the mcpServers object of a settings file.
type servers map[string]map[string]any

// start runs switchboard on the built-in demo: no settings file exists.
func start(t *testing.T, args ...string) *instance {
	t.Helper()
	return run(t, "", args...)
}

// startWith runs switchboard on a settings file in t.TempDir() holding cfg.
func startWith(t *testing.T, cfg servers) *instance {
	t.Helper()
	path := filepath.Join(t.TempDir(), "settings.json")
	writeSettings(t, path, cfg)
	return run(t, path, "--settings", path)
}

func writeSettings(t *testing.T, path string, cfg servers) {
	t.Helper()
	b, err := json.MarshalIndent(map[string]any{"mcpServers": cfg}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, settings string, args ...string) *instance {
	t.Helper()
	home := t.TempDir()
	data := t.TempDir()
	cmd := exec.Command(binary, append([]string{"--addr", "127.0.0.1:0", "--data", data, "--project", home}, args...)...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home, "HOME="+home)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	in := &instance{Settings: settings, Data: data, Home: home, pid: cmd.Process.Pid}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("switchboard exited with %v after SIGTERM, want a clean exit", err)
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("switchboard did not stop within 30s of SIGTERM")
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	const prefix = "switchboard listening on "
	if err != nil || !strings.HasPrefix(line, prefix) {
		t.Fatalf("first stdout line %q (%v), want %q...", line, err, prefix)
	}
	go io.Copy(io.Discard, stdout)
	in.URL, in.Token = parseListening(t, strings.TrimSpace(strings.TrimPrefix(line, prefix)))
	in.events = follow(ctx, t, in.URL+"/api/v1/events")
	return in
}

// waitState follows the event stream until server reaches state, counting
// every snapshot since the instance started.
func (in *instance) waitState(t *testing.T, server, state string) status {
	t.Helper()
	_, st := in.events.wait(t, 0, server+" state "+state, func(s status) bool {
		return s.ServerName == server && s.State == state
	})
	return st
}

// waitStateAfter is waitState counting only snapshots from index mark on
// (take mark with in.events.len() before the action).
func (in *instance) waitStateAfter(t *testing.T, mark int, server, state string) (int, status) {
	t.Helper()
	return in.events.wait(t, mark, server+" state "+state, func(s status) bool {
		return s.ServerName == server && s.State == state
	})
}

// testLog sends the process's log to the test's output.
type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
