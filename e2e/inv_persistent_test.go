//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// persistent is a switchboard whose settings, data and project
// directories outlive one process, so it can be stopped and started again
// on the same store and workspace.
type persistent struct {
	settings, data, project, home string
}

func newPersistent(t *testing.T, cfg servers) *persistent {
	t.Helper()
	p := &persistent{data: t.TempDir(), project: t.TempDir(), home: t.TempDir()}
	p.settings = filepath.Join(t.TempDir(), "settings.json")
	writeSettings(t, p.settings, cfg)
	return p
}

// start runs one process on p's directories; stop sends SIGTERM and waits
// for a clean exit (also done when the test ends, if not before).
func (p *persistent) start(t *testing.T) (in *instance, stop func()) {
	t.Helper()
	cmd := exec.Command(binary, "--addr", "127.0.0.1:0", "--data", p.data, "--project", p.project, "--settings", p.settings)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+p.home, "XDG_DATA_HOME="+p.home, "HOME="+p.home)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	in = &instance{Settings: p.settings, Data: p.data, pid: cmd.Process.Pid}
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	stop = func() {
		once.Do(func() {
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
	}
	t.Cleanup(stop)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	const prefix = "switchboard listening on "
	if err != nil || !strings.HasPrefix(line, prefix) {
		t.Fatalf("first stdout line %q (%v), want %q...", line, err, prefix)
	}
	go io.Copy(io.Discard, stdout)
	in.URL, in.Token = parseListening(t, strings.TrimSpace(strings.TrimPrefix(line, prefix)))
	in.events = follow(ctx, t, in.URL+"/api/v1/events")
	return in, stop
}
