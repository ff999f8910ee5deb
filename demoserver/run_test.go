package demoserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/demoserver"
)

// syncBuffer is a bytes.Buffer safe to read while Run writes to it.
type syncBuffer struct {
	mu  sync.Mutex // guards buf
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startRun runs demoserver.Run with args in a goroutine and returns the URL
// it announces on stdout, a function that stops it and returns Run's error,
// and its stderr.
func startRun(t *testing.T, args ...string) (url string, stop func() error, stderr *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	stderr = &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		err := demoserver.Run(ctx, args, strings.NewReader(""), stdoutW, stderr)
		stdoutW.CloseWithError(io.EOF)
		done <- err
	}()
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(requestTimeout):
			t.Fatalf("Run did not return within %s of ctx ending", requestTimeout)
			return nil
		}
	}
	t.Cleanup(func() { _ = stop() })

	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the listening line: %v (stderr: %s)", err, stderr)
	}
	// Keep draining so a stray write can never block Run.
	go func() { _, _ = io.Copy(io.Discard, stdoutR) }()
	const prefix = "demo-server listening on "
	if !strings.HasPrefix(line, prefix) {
		t.Fatalf("stdout: got %q, want a line starting %q", line, prefix)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, prefix)), stop, stderr
}

func TestRunServesOverHTTP(t *testing.T) {
	tests := []struct {
		name      string
		transport string
		wantPath  string
		connect   func(url string) (transport.Interface, error)
	}{
		{"streamable-http", "http", "/mcp", func(url string) (transport.Interface, error) {
			return transport.NewStreamableHTTP(url)
		}},
		{"legacy-sse", "sse", "/sse", func(url string) (transport.Interface, error) {
			return transport.NewSSE(url)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, stop, stderr := startRun(t, "--transport", tt.transport, "--addr", "127.0.0.1:0", "--name", "http-demo")
			if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, tt.wantPath) || strings.HasSuffix(url, ":0"+tt.wantPath) {
				t.Fatalf("url: got %q, want http://127.0.0.1:<real port>%s", url, tt.wantPath)
			}
			trans, err := tt.connect(url)
			if err != nil {
				t.Fatalf("transport: %v", err)
			}
			c := client.NewClient(trans)
			progress := make(chan mcp.JSONRPCNotification, 64)
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == string(mcp.MethodNotificationProgress) {
					progress <- n
				}
			})
			res := initialize(t, c)
			if got, want := res.ServerInfo.Name, "http-demo"; got != want {
				t.Errorf("server name: got %q, want %q", got, want)
			}
			tools := listTools(t, c)
			if _, ok := tools["markdown_report"]; !ok || len(tools) < 12 {
				t.Errorf("tools: got %d tools, want at least 12 including markdown_report", len(tools))
			}
			echoed := callTool(t, c, "echo", map[string]any{"message": "over the wire"})
			if text, ok := echoed.Content[0].(mcp.TextContent); !ok || text.Text != "over the wire" {
				t.Errorf("echo: got %+v, want text %q", echoed.Content, "over the wire")
			}
			expectProgress(t, c, progress, 3)
			_ = c.Close()

			if err := stop(); err != nil {
				t.Errorf("Run after ctx ended: got %v, want nil", err)
			}
			if got := stderr.String(); !strings.Contains(got, "demo-server: http-demo") || !strings.Contains(got, "listening on "+url) {
				t.Errorf("stderr: got %q, want start-up lines naming the server and the URL", got)
			}
		})
	}
}

// expectProgress calls long_task with a progress token and waits for one
// progress notification per step; they may trail the result, since the
// client delivers notifications on its own goroutine.
func expectProgress(t *testing.T, c *client.Client, progress <-chan mcp.JSONRPCNotification, steps int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "long_task"
	req.Params.Arguments = map[string]any{"steps": steps, "stepMillis": 1}
	req.Params.Meta = &mcp.Meta{ProgressToken: "wire"}
	if _, err := c.CallTool(ctx, req); err != nil {
		t.Fatalf("CallTool(long_task): %v", err)
	}
	for i := 1; i <= steps; i++ {
		select {
		case n := <-progress:
			if got := n.Params.AdditionalFields["progressToken"]; got != "wire" {
				t.Errorf("progress %d token: got %v, want %q", i, got, "wire")
			}
		case <-ctx.Done():
			t.Fatalf("progress: got %d notifications, want %d", i-1, steps)
		}
	}
}

func TestRunCrashEveryReturnsCrashError(t *testing.T) {
	stdinR, stdinW := io.Pipe()
	// The stdio server's reader goroutine stays blocked on stdin until it
	// closes; release it when the test ends.
	t.Cleanup(func() { _ = stdinW.Close() })
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()

	err := demoserver.Run(ctx, []string{"--crash-every", "50ms"}, stdinR, &stdout, &stderr)

	var crash *demoserver.CrashError
	if !errors.As(err, &crash) {
		t.Fatalf("Run: got %v (%T), want *demoserver.CrashError", err, err)
	}
	if got, want := crash.After, 50*time.Millisecond; got != want {
		t.Errorf("CrashError.After: got %s, want %s", got, want)
	}
	if ctx.Err() != nil {
		t.Errorf("ctx: got %v, want Run to return before the test deadline", ctx.Err())
	}
	if got, want := stderr.String(), "demo-server: simulated crash after 50ms\n"; !strings.Contains(got, want) {
		t.Errorf("stderr: got %q, want it to contain %q", got, want)
	}
	if got := stdout.String(); got != "" {
		t.Errorf("stdout: got %q, want nothing (stdout is the protocol channel)", got)
	}
}

func TestRunStdioSpeaksOnlyProtocolOnStdout(t *testing.T) {
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	var stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		err := demoserver.Run(ctx, []string{"--name", "stdio-demo"}, stdinR, stdoutW, &stderr)
		_ = stdoutW.Close()
		done <- err
	}()

	// Record everything the server writes so the test can check that stdout
	// carried nothing but JSON-RPC.
	var wire syncBuffer
	c := client.NewClient(transport.NewIO(io.TeeReader(stdoutR, &wire), stdinW, nil))
	res := initialize(t, c)
	if got, want := res.ServerInfo.Name, "stdio-demo"; got != want {
		t.Errorf("server name: got %q, want %q", got, want)
	}
	if got := callTool(t, c, "add", map[string]any{"a": 40, "b": 2}); got.Content[0].(mcp.TextContent).Text != "42" {
		t.Errorf("add: got %+v, want 42", got.Content)
	}
	// Closing the client closes the server's stdin, which ends Run cleanly.
	_ = c.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run after stdin closed: got %v, want nil", err)
		}
	case <-time.After(requestTimeout):
		t.Fatalf("Run did not return within %s of stdin closing", requestTimeout)
	}
	for _, line := range strings.Split(strings.TrimSpace(wire.String()), "\n") {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout line: got %q, want a JSON-RPC 2.0 message", line)
		}
	}
	if got := stderr.String(); !strings.Contains(got, "starting on stdio") {
		t.Errorf("stderr: got %q, want a start-up line", got)
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown-transport", []string{"--transport", "carrier-pigeon"}, "unknown transport"},
		{"negative-crash-interval", []string{"--crash-every", "-1s"}, "must not be negative"},
		{"stray-argument", []string{"extra"}, "unexpected argument"},
		{"unknown-flag", []string{"--nope"}, "flag provided but not defined"},
		{"unusable-address", []string{"--transport", "http", "--addr", "256.0.0.1:0"}, "listen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr syncBuffer
			err := demoserver.Run(context.Background(), tt.args, strings.NewReader(""), &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Run(%v): got %v, want an error containing %q", tt.args, err, tt.wantErr)
			}
			var crash *demoserver.CrashError
			if errors.As(err, &crash) {
				t.Errorf("Run(%v): got a CrashError, want a usage error", tt.args)
			}
		})
	}
}
