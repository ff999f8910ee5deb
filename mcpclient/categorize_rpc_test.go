package mcpclient_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A server's JSON-RPC error for one read is that read's failure: the
// session stays up, and the error carries the server's own message. The
// URIs mention a session on purpose: that text once ended the connection.
func TestReadUnknownResourceKeepsSession(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		uri      string
		wantCode int
	}{
		// No handler matches: mcp-go answers -32002 on 2025 revisions
		// and -32602 on 2026-07-28 (see below).
		{"no-such-uri", "demo://session/expired", mcp.RESOURCE_NOT_FOUND},
		// The notes template matches, and its handler fails.
		{"note-gone", "demo://notes/session-not-found", mcp.INTERNAL_ERROR},
	}
	for transport, s := range demoSessions(t) {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			for _, tt := range tests {
				_, err := s.ReadResource(connectCtx(t), tt.uri)
				var se *domain.ServerError
				if !errors.As(err, &se) {
					t.Fatalf("%s: ReadResource(%s) error = %v (%T), want a *domain.ServerError", tt.name, tt.uri, err, err)
				}
				if tt.wantCode == mcp.RESOURCE_NOT_FOUND && mcp.IsModernProtocol(s.ProtocolVersion()) {
					tt.wantCode = mcp.INVALID_PARAMS
				}
				if se.Code != tt.wantCode {
					t.Errorf("%s: code = %d, want %d", tt.name, se.Code, tt.wantCode)
				}
				if !strings.Contains(se.Message, "not found") || strings.HasPrefix(se.Message, "resource not found: ") {
					t.Errorf("%s: message = %q, want the server's own text", tt.name, se.Message)
				}
				if tt.name == "no-such-uri" && !strings.Contains(se.Message, tt.uri) {
					t.Errorf("%s: message = %q, want it to name %s", tt.name, se.Message, tt.uri)
				}
				select {
				case <-s.Done():
					t.Fatalf("%s: a refused read ended the session: %v", tt.name, s.Err())
				default:
				}
			}
			if err := s.Probe(connectCtx(t)); err != nil {
				t.Fatalf("Probe after refused reads: %v", err)
			}
			call(t, s, "echo", `{"message":"still here"}`, nil)
			raw, err := s.ReadResource(connectCtx(t), "demo://readme")
			if err != nil || !json.Valid(raw) {
				t.Fatalf("ReadResource(demo://readme) after refused reads = %s, %v", raw, err)
			}
		})
	}
}

// An unknown tool is refused by the server for that call alone.
func TestCallUnknownToolIsServerError(t *testing.T) {
	t.Parallel()
	for transport, s := range demoSessions(t) {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			_, err := s.CallTool(connectCtx(t), "no_such_session_tool", nil, nil)
			var se *domain.ServerError
			if !errors.As(err, &se) || se.Message == "" {
				t.Fatalf("CallTool(no_such_session_tool) error = %v (%T), want a *domain.ServerError", err, err)
			}
			call(t, s, "echo", `{"message":"still here"}`, nil)
		})
	}
}
