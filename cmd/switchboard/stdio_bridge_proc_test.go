package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

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
