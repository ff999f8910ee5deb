package mcpclient

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// A 2025 server that answers every unknown method with an empty result
// (as the official conformance mocks do) must still get initialize.
func TestEmptyDiscoverAnswerFallsBackToTheHandshake(t *testing.T) {
	for _, tc := range []struct {
		name, result string
		modern       bool
	}{
		{"empty", `{}`, false},
		{"only-legacy", `{"supportedVersions":["2025-11-25"]}`, false},
		{"modern", `{"supportedVersions":["2026-07-28","2025-11-25"]}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := transport.JSONRPCRequest{Method: string(mcp.MethodServerDiscover)}
			got := checkDiscover(req, &transport.JSONRPCResponse{Result: json.RawMessage(tc.result)})
			if (got.Error == nil) != tc.modern {
				t.Errorf("error %v, want modern=%v", got.Error, tc.modern)
			}
		})
	}
}
