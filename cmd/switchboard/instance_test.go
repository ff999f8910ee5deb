package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// `switchboard status` finds an instance on a port nobody typed (port 0)
// through DATA/instance.json, which serve writes privately once it listens
// and removes when it stops cleanly.
func TestStatusFindsInstanceInDataDir(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	settings := writeSettings(t, map[string]any{"demo": demoServer()})
	p := launch(t, data, "--settings", settings)
	p.events("demo", isState("connected"))

	path := filepath.Join(data, instanceFileName)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("instance file: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("instance file mode %v, want 0600", fi.Mode().Perm())
	}
	raw, _ := os.ReadFile(path)
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatalf("instance file %s: %v", raw, err)
	}
	if fields["url"] != p.url || fields["pid"] != float64(p.cmd.Process.Pid) || fields["startedAt"] == nil {
		t.Errorf("instance file %s: want url %s, pid %d and startedAt", raw, p.url, p.cmd.Process.Pid)
	}

	var out, errOut bytes.Buffer
	noAddr := func(string) string { return "" }
	if err := run(context.Background(), []string{"status", "--data", data}, noAddr, nil, &out, &errOut); err != nil {
		t.Fatalf("switchboard status --data (no --addr): %v", err)
	}
	if !strings.Contains(out.String(), "● demo") {
		t.Errorf("status printed %q, want the demo server", out.String())
	}

	p.stop()
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after a clean stop the instance file is still there (%v), want it removed", err)
	}
}

// A stale instance file, left by an instance that did not shut down
// cleanly, gets a message that says so instead of a bare network error.
func TestStatusStaleInstanceFile(t *testing.T) {
	data := t.TempDir()
	if _, err := ensureToken(data); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	tests := []struct {
		name string
		pid  int
		want string
	}{
		{"process-gone", deadPID(t), "process has ended"},
		{"nothing-listens", os.Getpid(), "nothing answers at " + closed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := writeInstance(data, instanceInfo{URL: closed, PID: tt.pid, StartedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			err := run(context.Background(), []string{"status", "--data", data}, func(string) string { return "" }, nil, &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("status with a stale instance file: got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// deadPID is the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess(binary, []string{binary, "--no-such-flag"}, &os.ProcAttr{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	return p.Pid
}
