package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// TestMissingInvocationSaysInvocationNotFound: a lookup of an invocation
// that does not exist names the invocation, never "server not found",
// which once leaked through the wrap of domain.ErrNotFound.
func TestMissingInvocationSaysInvocationNotFound(t *testing.T) {
	f, _ := sqliteInvFixture(t)
	status, body := f.do(t, http.MethodGet, handlers.InvocationPath(handlers.PathInvocation, "nope"), nil)
	e := wantError(t, status, body, http.StatusNotFound, "not_found")
	if !strings.Contains(e.Error.Message, "invocation not found") || strings.Contains(e.Error.Message, "server not found") {
		t.Errorf("message: got %q, want it to say invocation not found and nothing about a server", e.Error.Message)
	}
}

// TestReplayedToolCallIsConflict: a second call with the messageId and
// toolCallId of one already stored is a client replaying a call, answered
// 409 with a clear reason rather than a 500.
func TestReplayedToolCallIsConflict(t *testing.T) {
	f, svc := sqliteInvFixture(t)
	inv := &invFixture{fixture: f, svc: svc}
	path := handlers.ToolCallPath("demo", "echo") + "?conversationId=c1&messageId=m1&toolCallId=t1"
	if status, body := inv.post(t, path, `{}`); status != http.StatusAccepted {
		t.Fatalf("first call: got %d %s, want 202", status, body)
	}
	status, body := inv.post(t, path, `{}`)
	e := wantError(t, status, body, http.StatusConflict, "duplicate_call")
	if !strings.Contains(e.Error.Message, "toolCallId") {
		t.Errorf("message: got %q, want it to name the toolCallId", e.Error.Message)
	}
}
