package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

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
