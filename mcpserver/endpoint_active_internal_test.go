package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAggregatedListsWaitForTheFirstRequest: until a client reaches /mcp
// the gateway keeps only the catalogue (the drawer reads names from it),
// not mcp-go's lists; the first request finds every tool listed.
func TestAggregatedListsWaitForTheFirstRequest(t *testing.T) {
	r := newIdleRig(t)
	r.connect(t, "alpha", toolsCaps("a"))
	r.g.Refresh()
	if r.g.agg.tools.Load() != nil {
		t.Fatal("the tool list was built before any client asked for it")
	}
	if _, ok := r.g.Catalogue().Tool("alpha__a"); !ok {
		t.Fatal("the catalogue lacks alpha__a before the first request")
	}

	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/list")
	rec := httptest.NewRecorder()
	r.g.Aggregated().ServeHTTP(rec, req)
	if r.g.agg.tools.Load() == nil {
		t.Fatal("the first request did not build the tool list")
	}
	if !strings.Contains(rec.Body.String(), `"alpha__a"`) {
		t.Fatalf("first tools/list: %d %s, want alpha__a listed", rec.Code, rec.Body.String())
	}
}
