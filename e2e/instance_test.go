//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// instance is one running switchboard process with its own data directory
// and no settings file, so it runs the built-in demo servers.
type instance struct {
	URL string
	cmd *exec.Cmd
}

func start(t *testing.T, args ...string) *instance {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(binary, append([]string{"--addr", "127.0.0.1:0", "--data", t.TempDir(), "--project", home}, args...)...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+home, "HOME="+home)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inst := &instance{cmd: cmd}
	t.Cleanup(func() {
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
	inst.URL = strings.TrimSpace(strings.TrimPrefix(line, prefix))
	return inst
}

// waitState follows the event stream until server reaches state.
func (in *instance) waitState(t *testing.T, server, state string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, in.URL+"/api/v1/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("open event stream: %v", err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	last := ""
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var s struct{ ServerName, State string }
		if json.Unmarshal([]byte(data), &s) == nil && s.ServerName == server {
			last = s.State
			if s.State == state {
				return
			}
		}
	}
	t.Fatalf("%s never reached %s (last %q): %v", server, state, last, sc.Err())
}

// testLog sends the process's log to the test's output.
type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
