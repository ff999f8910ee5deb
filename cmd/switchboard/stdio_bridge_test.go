package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// clientToken is the client token the tests' bridges present.
const clientToken = "client-token-0123456789abcdefghijklmnopqrstuvwxyz"

// testMCP is a real mcp-go streamable HTTP server standing in for
// Switchboard: the bridge speaks the transport and must not care who
// serves it. Its handler can be swapped for a fresh server's, which
// forgets every session, as a restarted Switchboard would.
type testMCP struct {
	srv     *httptest.Server
	mcp     atomic.Pointer[server.MCPServer]
	handler atomic.Pointer[http.Handler]
	name    string
	release chan struct{} // closing it ends every call of the tool "wait"
	cancel  context.CancelFunc
}

func newTestMCP(t *testing.T, name string) *testMCP {
	t.Helper()
	m := &testMCP{name: name, release: make(chan struct{})}
	m.swap(name)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+clientToken {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		(*m.handler.Load()).ServeHTTP(w, r)
	})
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	m.srv = httptest.NewUnstartedServer(mux)
	m.srv.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	m.srv.Start()
	t.Cleanup(m.close)
	return m
}

// swap replaces the MCP server behind the endpoint with a fresh one
// called name, which knows none of the old one's sessions.
func (m *testMCP) swap(name string) {
	s := server.NewMCPServer(name, "1.0.0", server.WithToolCapabilities(true), server.WithRoots())
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(name + ":" + req.GetString("text", "")), nil
	})
	s.AddTool(mcp.NewTool("roots"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := s.RequestRoots(ctx, mcp.ListRootsRequest{})
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		var uris []string
		for _, r := range res.Roots {
			uris = append(uris, r.URI)
		}
		return mcp.NewToolResultText(strings.Join(uris, ",")), nil
	})
	s.AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-m.release:
			return mcp.NewToolResultText("released"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	var h http.Handler = server.NewStreamableHTTPServer(s, server.WithStateful(true),
		server.WithStreamableHTTPLogger(slog.New(slog.DiscardHandler)))
	m.mcp.Store(s)
	m.handler.Store(&h)
}

// close ends every request first, an open event stream included, even
// one that arrives while it closes: otherwise httptest's Close would wait
// for it.
func (m *testMCP) close() {
	m.cancel()
	m.srv.CloseClientConnections()
	m.srv.Close()
}

// point writes the data directory's instance file naming m, as a running
// Switchboard does.
func (m *testMCP) point(t *testing.T, data string) {
	t.Helper()
	if err := writeInstance(data, instanceInfo{URL: m.srv.URL, PID: os.Getpid(), StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// bridgeProc is one `switchboard stdio` running as a real process.
type bridgeProc struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan []byte
	logs  *bridgeLog
	done  chan error
}

func launchBridge(t *testing.T, data string, env []string, args ...string) *bridgeProc {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(binary, append([]string{"stdio", "--data", data}, args...)...)
	cmd.Env = append(append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config")), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &bridgeProc{t: t, cmd: cmd, stdin: stdin, lines: make(chan []byte, 64), logs: &bridgeLog{}, done: make(chan error, 1)}
	cmd.Stderr = p.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(p.lines)
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	return p
}

func (p *bridgeProc) send(msg string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, msg+"\n"); err != nil {
		p.t.Fatalf("write to the bridge: %v; log:\n%s", err, p.logs)
	}
}

// rpc is a JSON-RPC message as the tests read it.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
	Params json.RawMessage `json:"params"`
}

// recv returns the next line the bridge writes, which must be JSON-RPC.
func (p *bridgeProc) recv() rpc {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("the bridge closed stdout; log:\n%s", p.logs)
		}
		var m rpc
		if err := json.Unmarshal(line, &m); err != nil {
			p.t.Fatalf("stdout line %q is not JSON-RPC: %v", line, err)
		}
		return m
	case <-time.After(patience):
		p.t.Fatalf("no message from the bridge; log:\n%s", p.logs)
	}
	return rpc{}
}

// call sends a request and returns its response, failing on an error.
func (p *bridgeProc) call(id int, method, params string) json.RawMessage {
	p.t.Helper()
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	m := p.recv()
	if string(m.ID) != fmt.Sprint(id) {
		p.t.Fatalf("%s: got a message with id %s method %q, want the response to %d", method, m.ID, m.Method, id)
	}
	if m.Error != nil {
		p.t.Fatalf("%s: error %q; log:\n%s", method, m.Error.Message, p.logs)
	}
	return m.Result
}

// exit closes stdin and waits for the bridge to end.
func (p *bridgeProc) exit() error {
	p.t.Helper()
	p.stdin.Close()
	for range p.lines {
	}
	select {
	case err := <-p.done:
		return err
	case <-time.After(patience):
		p.t.Fatalf("the bridge did not exit after stdin closed; log:\n%s", p.logs)
	}
	return nil
}

const initializeParams = `{"protocolVersion":"2025-06-18","capabilities":{"roots":{}},"clientInfo":{"name":"bridge-test","version":"1"}}`

func (p *bridgeProc) initialize() {
	p.t.Helper()
	res := p.call(1, "initialize", initializeParams)
	if !strings.Contains(string(res), `"protocolVersion":"2025-06-18"`) {
		p.t.Fatalf("initialize result %s, want protocol 2025-06-18", res)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// toolText returns the first text of a tools/call result.
func toolText(t *testing.T, res json.RawMessage) string {
	t.Helper()
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(res, &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("tools/call result %s: %v", res, err)
	}
	if r.IsError {
		t.Fatalf("tools/call failed: %s", r.Content[0].Text)
	}
	return r.Content[0].Text
}

// TestStdioRelaysEverything runs the bridge against a real streamable
// HTTP server: it finds the server through the instance file, relays
// initialize, tools/list and tools/call, delivers what the server sends
// of its own accord (a notification, a roots/list request whose answer
// goes back), and exits 0 when stdin ends.
func TestStdioRelaysEverything(t *testing.T) {
	data := t.TempDir()
	srv := newTestMCP(t, "first")
	srv.point(t, data)
	p := launchBridge(t, data, []string{"SWITCHBOARD_CLIENT_TOKEN=" + clientToken}, "--start=false")
	p.initialize()

	if res := p.call(2, "tools/list", `{}`); !strings.Contains(string(res), `"name":"echo"`) || !strings.Contains(string(res), `"name":"roots"`) {
		t.Fatalf("tools/list %s, want echo and roots", res)
	}
	if got := toolText(t, p.call(3, "tools/call", `{"name":"echo","arguments":{"text":"hi"}}`)); got != "first:hi" {
		t.Fatalf("echo: got %q, want %q", got, "first:hi")
	}

	// No request is in flight, so only the listening stream can carry it.
	srv.mcp.Load().SendNotificationToAllClients("notifications/message", map[string]any{"level": "info", "data": "hello"})
	if m := p.recv(); m.Method != "notifications/message" || !strings.Contains(string(m.Params), "hello") {
		t.Fatalf("got %s %s, want the server's notifications/message", m.Method, m.Params)
	}

	p.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"roots","arguments":{}}}`)
	req := p.recv()
	if req.Method != "roots/list" || len(req.ID) == 0 {
		t.Fatalf("got %s (id %s), want the server's roots/list request", req.Method, req.ID)
	}
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[{"uri":"file:///work/project","name":"project"}]}}`, req.ID))
	res := p.recv()
	if string(res.ID) != "4" {
		t.Fatalf("got id %s, want the response to 4", res.ID)
	}
	if got := toolText(t, res.Result); got != "file:///work/project" {
		t.Fatalf("roots: got %q, want the client's root", got)
	}

	if err := p.exit(); err != nil {
		t.Fatalf("bridge exit: %v, want 0; log:\n%s", err, p.logs)
	}
}

// TestStdioReinitializesWhenSwitchboardGoesAway replaces the server twice
// under a live client: first by a new process elsewhere (the old address
// refuses connections; the instance file names the new one), then by a
// restart that forgets the session (404). Each time the bridge replays
// the client's initialize and the client's next call just works.
func TestStdioReinitializesWhenSwitchboardGoesAway(t *testing.T) {
	data := t.TempDir()
	first := newTestMCP(t, "first")
	first.point(t, data)
	p := launchBridge(t, data, []string{"SWITCHBOARD_CLIENT_TOKEN=" + clientToken}, "--start=false")
	p.initialize()
	if got := toolText(t, p.call(2, "tools/call", `{"name":"echo","arguments":{"text":"a"}}`)); got != "first:a" {
		t.Fatalf("got %q, want first:a", got)
	}

	first.close()
	second := newTestMCP(t, "second")
	second.point(t, data)
	if got := toolText(t, p.call(3, "tools/call", `{"name":"echo","arguments":{"text":"b"}}`)); got != "second:b" {
		t.Fatalf("after a move: got %q, want second:b", got)
	}

	second.swap("third")
	if got := toolText(t, p.call(4, "tools/call", `{"name":"echo","arguments":{"text":"c"}}`)); got != "third:c" {
		t.Fatalf("after a restart: got %q, want third:c", got)
	}
	// The new session has a listening stream too.
	second.mcp.Load().SendNotificationToAllClients("notifications/message", map[string]any{"level": "info", "data": "again"})
	if m := p.recv(); m.Method != "notifications/message" {
		t.Fatalf("got %s, want the new server's notification", m.Method)
	}
	if err := p.exit(); err != nil {
		t.Fatalf("bridge exit: %v, want 0; log:\n%s", err, p.logs)
	}
}

// TestStdioRefusesAWrongToken shows a client what went wrong: the request
// gets a JSON-RPC error naming the token, and stdout stays JSON-RPC.
func TestStdioRefusesAWrongToken(t *testing.T) {
	data := t.TempDir()
	newTestMCP(t, "first").point(t, data)
	p := launchBridge(t, data, []string{"SWITCHBOARD_CLIENT_TOKEN=wrong-token-0123456789abcdefghijklmnopqrstuvwxyz"}, "--start=false")
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":` + initializeParams + `}`)
	m := p.recv()
	if m.Error == nil || !strings.Contains(m.Error.Message, "token") {
		t.Fatalf("got %+v, want an error about the token", m)
	}
	if err := p.exit(); err != nil {
		t.Fatalf("bridge exit: %v, want 0", err)
	}
}

// TestStdioStartsOneSwitchboard runs two bridges at once on a data
// directory where no Switchboard runs: exactly one Switchboard starts,
// detached, both bridges relay to it, and it outlives them.
func TestStdioStartsOneSwitchboard(t *testing.T) {
	data, err := os.MkdirTemp("", "switchboard-stdio-start-")
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	t.Cleanup(func() { stopStarted(t, data, pid); os.RemoveAll(data) })
	var bridges []*bridgeProc
	for range 2 {
		bridges = append(bridges, launchBridge(t, data, nil, "--addr", "127.0.0.1:0"))
	}
	for _, p := range bridges {
		p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":` + initializeParams + `}`)
		m := p.recv()
		if string(m.ID) != "1" || m.Result == nil {
			t.Fatalf("got %+v, want the gateway's answer to initialize; log:\n%s", m, p.logs)
		}
	}
	info, err := readInstance(data)
	if err != nil {
		t.Fatalf("no instance file after the bridges started Switchboard: %v", err)
	}
	pid = info.PID
	for i, p := range bridges {
		if err := p.exit(); err != nil {
			t.Fatalf("bridge %d exit: %v, want 0; log:\n%s", i, err, p.logs)
		}
	}
	if n := strings.Count(bridges[0].logs.String()+bridges[1].logs.String(), "started Switchboard in the background"); n != 1 {
		t.Fatalf("Switchboard started %d times, want once; logs:\n%s\n---\n%s", n, bridges[0].logs, bridges[1].logs)
	}
	if !processAlive(pid) {
		t.Fatalf("the started Switchboard (process %d) ended with its bridges", pid)
	}
	if after, err := readInstance(data); err != nil || after.PID != pid {
		t.Fatalf("instance file now names process %d (%v), want the one started, %d", after.PID, err, pid)
	}
}

// stopStarted ends the Switchboard a bridge started, and waits until it
// has removed its instance file on the way out. That process is not the
// test's child, so the file is what tells that it has stopped.
func stopStarted(t *testing.T, data string, pid int) {
	if pid == 0 {
		if info, err := readInstance(data); err == nil {
			pid = info.PID
		}
	}
	if pid <= 0 {
		return
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(data); err != nil {
		t.Fatal(err)
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	timeout := time.After(patience)
	for {
		if _, err := readInstance(data); err != nil {
			return
		}
		select {
		case <-w.Events:
		case err := <-w.Errors:
			t.Fatalf("watch %s: %v", data, err)
		case <-timeout:
			t.Errorf("the started Switchboard (process %d) did not stop", pid)
			return
		}
	}
}

// TestStdioEndsOnSignal checks that SIGTERM ends the bridge at once even
// while the client keeps stdin open and quiet, as a client that stops its
// servers does.
func TestStdioEndsOnSignal(t *testing.T) {
	data := t.TempDir()
	newTestMCP(t, "first").point(t, data)
	p := launchBridge(t, data, []string{"SWITCHBOARD_CLIENT_TOKEN=" + clientToken}, "--start=false")
	p.initialize()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for range p.lines {
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("bridge exit after SIGTERM: %v, want 0; log:\n%s", err, p.logs)
		}
	case <-time.After(shutdownDeadline / 2):
		t.Fatalf("the bridge did not end on SIGTERM; log:\n%s", p.logs)
	}
}

// TestStdioRunsCallsConcurrently checks that a slow call does not hold up
// the next one, and that each answer goes to its own request: the relay
// keeps a client's calls apart without looking inside them.
func TestStdioRunsCallsConcurrently(t *testing.T) {
	data := t.TempDir()
	srv := newTestMCP(t, "first")
	srv.point(t, data)
	p := launchBridge(t, data, []string{"SWITCHBOARD_CLIENT_TOKEN=" + clientToken}, "--start=false")
	p.initialize()
	p.send(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	const n = 8
	for i := range n {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"%d"}}}`, 100+i, i))
	}
	for range n {
		m := p.recv()
		var id int
		if err := json.Unmarshal(m.ID, &id); err != nil {
			t.Fatalf("got the answer to %s before the quick calls", m.ID)
		}
		if got, want := toolText(t, m.Result), fmt.Sprintf("first:%d", id-100); got != want {
			t.Fatalf("request %d: got %q, want %q", id, got, want)
		}
	}
	close(srv.release)
	if m := p.recv(); string(m.ID) != `"slow"` || toolText(t, m.Result) != "released" {
		t.Fatalf("got %s %s, want the slow call's answer", m.ID, m.Result)
	}
	if err := p.exit(); err != nil {
		t.Fatalf("bridge exit: %v, want 0; log:\n%s", err, p.logs)
	}
}

// TestStdioWaitsForAStartingSwitchboard holds the data directory's owner
// lock as a Switchboard that has not answered yet does: the bridge must
// wait for it, never start a second supervisor, and relay once it answers.
func TestStdioWaitsForAStartingSwitchboard(t *testing.T) {
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "running"), 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := os.Create(filepath.Join(data, "running", "0123456789abcdef0123456789abcdef.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	p := launchBridge(t, data, []string{"SWITCHBOARD_CLIENT_TOKEN=" + clientToken})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":` + initializeParams + `}`)
	waitLog(t, p, "waiting for it")
	newTestMCP(t, "late").point(t, data)
	if m := p.recv(); string(m.ID) != "1" || m.Result == nil {
		t.Fatalf("got %+v, want the answer to initialize; log:\n%s", m, p.logs)
	}
	if strings.Contains(p.logs.String(), "started Switchboard") {
		t.Fatalf("the bridge started a second Switchboard; log:\n%s", p.logs)
	}
	if err := p.exit(); err != nil {
		t.Fatalf("bridge exit: %v, want 0; log:\n%s", err, p.logs)
	}
}

// waitLog waits until the bridge's log says want.
func waitLog(t *testing.T, p *bridgeProc, want string) {
	t.Helper()
	select {
	case <-p.logs.saying(want):
	case <-time.After(patience):
		t.Fatalf("the bridge never logged %q; log:\n%s", want, p.logs)
	}
}

// bridgeLog collects a bridge's stderr, and tells a test when it says
// something.
type bridgeLog struct {
	mu    sync.Mutex // guards buf and waits
	buf   strings.Builder
	waits map[string]chan struct{}
}

func (l *bridgeLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.buf.Write(p)
	for want, ch := range l.waits {
		if strings.Contains(l.buf.String(), want) {
			close(ch)
			delete(l.waits, want)
		}
	}
	return n, err
}

func (l *bridgeLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// saying returns a channel closed once the log contains want.
func (l *bridgeLog) saying(want string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch := make(chan struct{})
	if strings.Contains(l.buf.String(), want) {
		close(ch)
		return ch
	}
	if l.waits == nil {
		l.waits = map[string]chan struct{}{}
	}
	l.waits[want] = ch
	return ch
}
