package mcpclient_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// bulkHTTP is a minimal streamable HTTP server: its tool "json" answers
// with a text result of the requested size as plain JSON, "sse" as one
// event of an event stream, "fail" as the body of a status 500. With
// hugeStream its GET stream sends one endless event.
func bulkHTTP(t *testing.T, hugeStream bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			if !hugeStream {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("event: message\ndata: "))
			chunk := []byte(strings.Repeat("x", 64<<10))
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string `json:"name"`
				Arguments struct {
					Bytes int `json:"bytes"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if req.Params.Name == "fail" {
			http.Error(w, strings.Repeat("x", req.Params.Arguments.Bytes), http.StatusInternalServerError)
			return
		}
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bulk","version":"1"}}`
		case "tools/call":
			text := strings.Repeat("x", req.Params.Arguments.Bytes)
			result = `{"content":[{"type":"text","text":"` + text + `"}]}`
		case "ping":
			result = `{}`
		default: // notifications
			w.WriteHeader(http.StatusAccepted)
			return
		}
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
		if req.Params.Name == "sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(msg))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// A response over the limit fails its request with a protocol error and
// leaves the session up for the next one, whether it came as plain JSON or
// as an event.
func TestHTTPResponseOverLimitFailsTheRequest(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"json", "sse"} {
		t.Run(tool, func(t *testing.T) {
			t.Parallel()
			c := mcpclient.New(mcpclient.Options{MaxMessageBytes: testLimit})
			s := connect(t, c, remote(domain.TransportHTTP, bulkHTTP(t, false)), nil)
			want := "the server sent a response over 1 MiB; it was cut off"
			if tool == "sse" {
				want = "the server sent an event over 1 MiB; it was cut off"
			}
			_, err := s.CallTool(connectCtx(t), tool, json.RawMessage(`{"bytes": 2097152}`), nil)
			checkTooLarge(t, err, want)

			out, err := s.CallTool(connectCtx(t), tool, json.RawMessage(`{"bytes": 524288}`), nil)
			if err != nil {
				t.Fatalf("CallTool under the limit: %v", err)
			}
			if len(out) < 512<<10 {
				t.Errorf("result of %d bytes, want the whole 512 KiB text", len(out))
			}
			select {
			case <-s.Done():
				t.Errorf("session ended: %v", s.Err())
			default:
			}
		})
	}
}

// An error body, which mcp-go copies into its error message, is cut far
// below the message limit.
func TestHTTPErrorBodyIsCut(t *testing.T) {
	t.Parallel()
	c := mcpclient.New(mcpclient.Options{MaxMessageBytes: testLimit})
	s := connect(t, c, remote(domain.TransportHTTP, bulkHTTP(t, false)), nil)
	_, err := s.CallTool(connectCtx(t), "fail", json.RawMessage(`{"bytes": 524288}`), nil)
	checkTooLarge(t, err, "the server sent a response over 64 KiB; it was cut off")
	if n := len(err.Error()); n > 80<<10 {
		t.Errorf("error message of %d bytes, want it cut near 64 KiB", n)
	}
}

// An event stream the session listens on that sends an event over the
// limit ends the session, rather than being reopened forever.
func TestHTTPStreamEventOverLimitEndsSession(t *testing.T) {
	t.Parallel()
	c := mcpclient.New(mcpclient.Options{MaxMessageBytes: testLimit})
	cfg := remote(domain.TransportHTTP, bulkHTTP(t, true))
	s, err := c.Connect(connectCtx(t), cfg, nil)
	if err == nil {
		t.Cleanup(func() { _ = s.Close() })
		err = waitDone(t, s)
	}
	var ce *domain.ConnError
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %v, want a *domain.ConnError", err, err)
	}
	checkTooLarge(t, ce, "the server sent an event over 1 MiB; the connection was dropped")
}

// On legacy SSE every response arrives on the event stream, so a result
// over the limit ends the session, and the call with it.
func TestSSEResultOverLimitEndsSession(t *testing.T) {
	t.Parallel()
	_, url := startDemoRemote(t, "sse", "127.0.0.1:0")
	s := connect(t, mcpclient.New(mcpclient.Options{MaxMessageBytes: smallLimit}), remote(domain.TransportSSE, url), nil)
	args, _ := json.Marshal(map[string]string{"message": strings.Repeat("x", 128<<10)})
	_, err := s.CallTool(connectCtx(t), "echo", args, nil)
	want := "the server sent an event over 64 KiB; the connection was dropped"
	checkTooLarge(t, err, want)
	checkTooLarge(t, waitDone(t, s), want)
}
