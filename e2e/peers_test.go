//go:build e2e

package e2e

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The settings entries below are real MCP peers (or real failures) the
// tests configure; none is a fake of switchboard's own code.

// demoStdio is the built binary's demo server as a stdio child.
func demoStdio(name string, extra map[string]any) map[string]any {
	e := map[string]any{"command": binary, "args": []string{"demo-server", "--name", name}}
	for k, v := range extra {
		e[k] = v
	}
	return e
}

// failingCommand exits with an error at once, every time.
func failingCommand() map[string]any {
	return map[string]any{"command": "sh", "args": []string{"-c", "echo boom >&2; exit 3"}}
}

// missingCommand names a program that does not exist.
func missingCommand() map[string]any {
	return map[string]any{"command": "/nonexistent/switchboard-e2e-missing-server"}
}

// demoHTTP runs the binary's demo server over streamable HTTP and returns
// its URL.
func demoHTTP(t *testing.T, name string) string {
	t.Helper()
	cmd := exec.Command(binary, "demo-server", "--transport", "http", "--addr", "127.0.0.1:0", "--name", name)
	line, _ := startPrinting(t, cmd, "demo-server listening on ")
	return strings.TrimSpace(strings.TrimPrefix(line, "demo-server listening on "))
}

// startPrinting starts cmd in its own process group, returns the first
// line of its combined output that contains marker and a channel closed
// when it exits, and kills the group when the test ends.
func startPrinting(t *testing.T, cmd *exec.Cmd, marker string) (string, <-chan struct{}) {
	t.Helper()
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		pw.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), marker) {
				found <- sc.Text()
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case line := <-found:
		return line, exited
	case <-exited:
		t.Fatalf("%s exited before printing %q", cmd.Path, marker)
	case <-time.After(waitLong):
		t.Fatalf("%s did not print %q within %s", cmd.Path, marker, waitLong)
	}
	return "", exited
}

// everything is server-everything over streamable HTTP on a fixed port, so
// that it can be killed and brought back where switchboard expects it.
type everything struct {
	t      *testing.T
	port   int
	cmd    *exec.Cmd
	exited <-chan struct{}
}

func startEverything(t *testing.T) *everything {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	e := &everything{t: t, port: port}
	e.start()
	return e
}

// URL is the MCP endpoint.
func (e *everything) URL() string { return fmt.Sprintf("http://127.0.0.1:%d/mcp", e.port) }

func (e *everything) start() {
	e.t.Helper()
	js, err := filepath.Abs(filepath.Join("node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if err != nil {
		e.t.Fatal(err)
	}
	e.cmd = exec.Command("node", js, "streamableHttp")
	e.cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(e.port))
	_, e.exited = startPrinting(e.t, e.cmd, "listening on port")
}

// kill SIGKILLs the server and waits until it has exited.
func (e *everything) kill() {
	e.t.Helper()
	if err := syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		e.t.Fatalf("kill server-everything: %v", err)
	}
	<-e.exited
}

// gate is a streamable-HTTP endpoint in the test process that holds every
// request until it is opened and then proxies to a real MCP server, so a
// server stays "connecting" exactly as long as a test wants. With no
// upstream it never answers: a server whose connect hangs.
type gate struct {
	URL   string
	mu    sync.Mutex    // guards open
	open  chan struct{} // closed while the gate is open
	done  chan struct{} // closed when the test ends, to free held requests
	proxy http.Handler
}

func newGate(t *testing.T, upstream string) *gate {
	t.Helper()
	g := &gate{open: make(chan struct{}), done: make(chan struct{})}
	if upstream != "" {
		u, err := url.Parse(upstream)
		if err != nil {
			t.Fatal(err)
		}
		target := &url.URL{Scheme: u.Scheme, Host: u.Host}
		g.proxy = &httputil.ReverseProxy{
			Rewrite:       func(pr *httputil.ProxyRequest) { pr.SetURL(target) },
			FlushInterval: -1,
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(func() {
		close(g.done)
		srv.CloseClientConnections()
		srv.Close()
	})
	path := "/mcp"
	if upstream != "" {
		u, _ := url.Parse(upstream)
		path = u.Path
	}
	g.URL = srv.URL + path
	return g
}

func (g *gate) serve(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	open := g.open
	g.mu.Unlock()
	select {
	case <-open:
	case <-r.Context().Done():
		return
	case <-g.done:
		return
	}
	if g.proxy == nil {
		<-g.done
		return
	}
	g.proxy.ServeHTTP(w, r)
}

// release lets held and new requests through.
func (g *gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.open:
	default:
		close(g.open)
	}
}

// hold makes new requests wait again; requests already through go on.
func (g *gate) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.open:
		g.open = make(chan struct{})
	default:
	}
}

// tlsServer is an HTTPS endpoint whose certificate nobody trusts.
func tlsServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "never reached", http.StatusTeapot)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// childPid finds the child process of switchboard that runs the stdio
// server name, through /proc/<pid>/task/*/children.
func (in *instance) childPid(t *testing.T, name string) int {
	t.Helper()
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", in.pid))
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(b)) {
			cmdline, err := os.ReadFile("/proc/" + field + "/cmdline")
			if err != nil {
				continue
			}
			if strings.Contains(string(cmdline), "\x00--name\x00"+name+"\x00") || strings.HasSuffix(string(cmdline), "\x00--name\x00"+name) {
				pid, _ := strconv.Atoi(field)
				return pid
			}
		}
	}
	t.Fatalf("no child process of switchboard (pid %d) runs server %s", in.pid, name)
	return 0
}
