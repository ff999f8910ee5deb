package handlers

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A server's JSON-RPC error for one request is the upstream's answer: 502
// with the server's message, never a 500 that hides it.
func TestClassifyServerError(t *testing.T) {
	err := fmt.Errorf("read demo://x on demo: %w", &domain.ServerError{Code: -32602, Message: "Resource demo://x not found"})
	got := classify(err)
	if got.status != http.StatusBadGateway || got.code != "server_error" {
		t.Errorf("classify: got %d %s, want %d server_error", got.status, got.code, http.StatusBadGateway)
	}
	if !strings.Contains(got.message, "Resource demo://x not found") {
		t.Errorf("message: got %q, want the server's text", got.message)
	}
}
