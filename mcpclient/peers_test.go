package mcpclient_test

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// The peers the tests talk to: the demo and fixture servers (this test
// binary re-executed, see TestMain) and npm's server-everything.

const everythingEntry = "../e2e/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

// Lists server-everything 2026.8.31 offers a client that declares
// elicitation, sampling, roots and tasks, as Switchboard does on stdio and
// streamable HTTP (and as the MCP Inspector does): its 12 always-on tools
// plus simulate-research-query, get-roots-list,
// trigger-elicitation-request, trigger-url-elicitation,
// trigger-sampling-request and their two -async forms, which it registers
// once initialized.
const (
	everythingTools     = 19
	everythingResources = 7
	everythingTemplates = 2
	everythingPrompts   = 4
)

func demoStdio(args ...string) domain.ServerConfig {
	return domain.ServerConfig{
		Name:      "demo",
		Transport: domain.TransportStdio,
		Command:   os.Args[0],
		Args:      args,
		Env:       map[string]string{serverModeEnv: "demo"},
	}
}

func fixtureStdio() domain.ServerConfig {
	return domain.ServerConfig{
		Name:      "fixture",
		Transport: domain.TransportStdio,
		Command:   os.Args[0],
		Env:       map[string]string{serverModeEnv: "fixture"},
	}
}

// everything returns the path of server-everything's entry point. Without
// it, or without node, the test fails on CI and is skipped elsewhere.
func everything(t *testing.T) string {
	t.Helper()
	path, err := filepath.Abs(everythingEntry)
	if err == nil {
		_, err = os.Stat(path)
	}
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		msg := "server-everything is not installed (run npm ci in e2e/) or node is missing: " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

func everythingStdio(t *testing.T) domain.ServerConfig {
	return domain.ServerConfig{
		Name:      "everything",
		Transport: domain.TransportStdio,
		Command:   "node",
		Args:      []string{everything(t), "stdio"},
	}
}

// serverProc is a server the test started itself, to kill or restart it
// behind a session's back.
type serverProc struct {
	cmd    *exec.Cmd
	waited chan struct{}
}

// startServer runs cmd and waits until a line containing marker appears on
// its stdout (or stderr, with onStderr), returning that line.
func startServer(t *testing.T, cmd *exec.Cmd, marker string, onStderr bool) (*serverProc, string) {
	t.Helper()
	w := &lineWatcher{marker: marker, found: make(chan string, 1)}
	if onStderr {
		cmd.Stderr = w
	} else {
		cmd.Stdout = w
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	p := &serverProc{cmd: cmd, waited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.waited)
	}()
	t.Cleanup(p.kill)
	select {
	case line := <-w.found:
		return p, line
	case <-p.waited:
		t.Fatalf("%s exited before printing %q", cmd.Path, marker)
	case <-time.After(connectTimeout):
		t.Fatalf("%s did not print %q within %s", cmd.Path, marker, connectTimeout)
	}
	return nil, ""
}

func (p *serverProc) kill() {
	_ = p.cmd.Process.Kill()
	<-p.waited
}

// startDemoRemote runs the demo server over http or sse on addr and
// returns it and its endpoint URL.
func startDemoRemote(t *testing.T, transport, addr string) (*serverProc, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--transport", transport, "--addr", addr)
	cmd.Env = append(os.Environ(), serverModeEnv+"=demo")
	p, line := startServer(t, cmd, "demo-server listening on ", false)
	return p, strings.TrimSpace(strings.TrimPrefix(line, "demo-server listening on "))
}

// startFixtureHTTP runs the fixture server over streamable HTTP on addr
// and returns it and its endpoint URL.
func startFixtureHTTP(t *testing.T, addr string) (*serverProc, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--http", addr)
	cmd.Env = append(os.Environ(), serverModeEnv+"=fixture")
	p, line := startServer(t, cmd, "fixture listening on ", false)
	return p, strings.TrimSpace(strings.TrimPrefix(line, "fixture listening on "))
}

// startEverythingHTTP runs server-everything's streamable HTTP transport on
// a free port and returns it and its endpoint URL.
func startEverythingHTTP(t *testing.T) (*serverProc, string) {
	t.Helper()
	entry := everything(t)
	port := freePort(t)
	cmd := exec.Command("node", entry, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	p, _ := startServer(t, cmd, "listening on port", true)
	return p, "http://127.0.0.1:" + port + "/mcp"
}

// freePort returns a port nothing listens on at the moment.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// lineWatcher is a process's output: it reports the first line containing
// marker and discards the rest.
type lineWatcher struct {
	mu     sync.Mutex // guards buf and done
	buf    []byte
	done   bool
	marker string
	found  chan string
}

func (w *lineWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(w.buf[:i])
		w.buf = w.buf[i+1:]
		if strings.Contains(line, w.marker) {
			w.done = true
			w.buf = nil
			w.found <- line
			return len(p), nil
		}
	}
}

// pidGone reports whether pid no longer runs; a zombie waiting for an init
// that never reaps counts as gone.
func pidGone(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
	}
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z"))
}

// readPID reads the pid a server wrote to path before serving.
func readPID(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file holds %q: %v", b, err)
	}
	return pid
}
