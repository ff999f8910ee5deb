package mcpclient_test

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// testLimit keeps the tests fast: a megabyte crosses it in milliseconds.
// Tests whose messages go through JSON on both sides, which is slow under
// the race detector, use the smaller smallLimit.
const (
	testLimit  = 1 << 20
	smallLimit = 64 << 10
)

func TestMessageLimitFraming(t *testing.T) {
	tests := []struct {
		name    string
		max     int64
		framing string
		chunks  []string
		want    int
	}{
		{"line-at-limit", 3, "line", []string{"abc\n"}, 4},
		{"line-over-limit", 3, "line", []string{"abcd\n"}, 3},
		{"lines-each-under", 2, "line", []string{"ab\ncd\nef"}, 8},
		{"line-across-chunks", 2, "line", []string{"a", "b", "c\n"}, 2},
		{"line-end-resets-across-chunks", 2, "line", []string{"ab", "\n", "cd\n"}, 6},
		{"endless-line", 4, "line", []string{"\x00\x00\x00", "\x00\x00\x00"}, 4},
		{"event-lines-add-up", 12, "event", []string{"data: a\ndata: b\n\n"}, 12},
		{"events-each-under", 8, "event", []string{"data: a\n\ndata: b\n\ndata: c\n\n"}, 27},
		{"event-crlf", 9, "event", []string{"data: a\r\n\r\ndata: b\r\n\r\n"}, 22},
		{"event-blank-line-across-chunks", 8, "event", []string{"data: a\n", "\n", "data: b\n\n"}, 18},
		{"whole-at-limit", 4, "whole", []string{"ab", "cd"}, 4},
		{"whole-over-limit", 4, "whole", []string{"ab\n", "\ncd"}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mcpclient.FitMessages(tt.max, tt.framing, tt.chunks...); got != tt.want {
				t.Errorf("got %d bytes through, want %d", got, tt.want)
			}
		})
	}
}

// checkTooLarge asserts that err is a protocol error about a message over
// testLimit that says what happened.
func checkTooLarge(t *testing.T, err error, wantText string) {
	t.Helper()
	var ce *domain.ConnError
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %v, want a *domain.ConnError", err, err)
	}
	if ce.Category != domain.CategoryProtocol || mcpclient.Classify(err) != domain.CategoryProtocol {
		t.Errorf("category %s (classified %s), want protocol", ce.Category, mcpclient.Classify(err))
	}
	if !errors.Is(err, mcpclient.ErrMessageTooLarge) {
		t.Errorf("error %v does not match ErrMessageTooLarge", err)
	}
	if !strings.Contains(err.Error(), wantText) {
		t.Errorf("error %q, want it to say %q", err, wantText)
	}
}

// A server writing one endless line is stopped with a protocol error while
// the server beside it, on the same connector, carries on.
func TestStdioEndlessLineStopsOnlyThatServer(t *testing.T) {
	t.Parallel()
	c := mcpclient.New(mcpclient.Options{MaxMessageBytes: testLimit})
	demo := connect(t, c, demoStdio(), nil)

	cfg, pidFile := endlessStdio(t.TempDir())
	ce := connectErr(t, c, cfg, nil)
	checkTooLarge(t, ce, "the server sent a message over 1 MiB (no line end); it was stopped")

	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the endless server never started: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group %d: kill 0 = %v, want ESRCH (gone)", pid, err)
	}

	select {
	case <-demo.Done():
		t.Fatalf("the demo server's session ended: %v", demo.Err())
	default:
	}
	if err := demo.Probe(connectCtx(t)); err != nil {
		t.Errorf("demo Probe: %v", err)
	}
	if _, err := demo.CallTool(connectCtx(t), "echo", json.RawMessage(`{"message":"still here"}`), nil); err != nil {
		t.Errorf("demo CallTool(echo): %v", err)
	}
}

// A result over the limit ends the session of a connected server, with the
// same protocol error for the call and the session; one under it arrives.
func TestStdioResultOverLimitEndsSession(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{MaxMessageBytes: smallLimit}), bulkStdio(), nil)
	out, err := s.CallTool(connectCtx(t), "bulk", json.RawMessage(`{"bytes": 32768}`), nil)
	if err != nil {
		t.Fatalf("CallTool under the limit: %v", err)
	}
	if len(out) < 32<<10 {
		t.Errorf("result of %d bytes, want the whole 32 KiB text", len(out))
	}
	_, err = s.CallTool(connectCtx(t), "bulk", json.RawMessage(`{"bytes": 131072}`), nil)
	checkTooLarge(t, err, "it was stopped")
	checkTooLarge(t, waitDone(t, s), "the server sent a message over 64 KiB (no line end); it was stopped")
}
