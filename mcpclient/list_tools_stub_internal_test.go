package mcpclient

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestToolsPageStubKeepsOnlyTheCursor checks that mcp-go gets a tools/list
// page without its tools but with its cursor, so that it still follows the
// pages, and that Switchboard's decoding of the page as sent finds them.
func TestToolsPageStubKeepsOnlyTheCursor(t *testing.T) {
	list := transport.JSONRPCRequest{Method: string(mcp.MethodToolsList)}
	for _, tc := range []struct{ page, want string }{
		{`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"c2"}`, `{"tools":[],"nextCursor":"c2"}`},
		{`{"tools":[{"name":"b","inputSchema":{"type":"object"}}]}`, `{"tools":[]}`},
	} {
		resp := &transport.JSONRPCResponse{Result: json.RawMessage(tc.page)}
		got := toolsPageStub(list, resp)
		if string(got.Result) != tc.want {
			t.Errorf("stub of %s = %s, want %s", tc.page, got.Result, tc.want)
		}
		if string(resp.Result) != tc.page {
			t.Errorf("the captured page changed to %s", resp.Result)
		}
		tools, err := toolsFromPages([]json.RawMessage{json.RawMessage(tc.page)})
		if err != nil || len(tools) != 1 {
			t.Errorf("toolsFromPages(%s) = %v, %v; want one tool", tc.page, tools, err)
		}
	}
}

// TestToolsPageStubLeavesTheRest checks that other methods, errors,
// results that are not objects and requests for more input reach mcp-go
// as sent.
func TestToolsPageStubLeavesTheRest(t *testing.T) {
	list := transport.JSONRPCRequest{Method: string(mcp.MethodToolsList)}
	call := transport.JSONRPCRequest{Method: string(mcp.MethodToolsCall)}
	for _, tc := range []struct {
		req  transport.JSONRPCRequest
		resp *transport.JSONRPCResponse
	}{
		{call, &transport.JSONRPCResponse{Result: json.RawMessage(`{"tools":[]}`)}},
		{list, &transport.JSONRPCResponse{Error: &mcp.JSONRPCErrorDetails{Code: -32601, Message: "no"}}},
		{list, &transport.JSONRPCResponse{Result: json.RawMessage(`[1]`)}},
		{list, &transport.JSONRPCResponse{Result: json.RawMessage(`{"resultType":"input_required","inputRequests":{}}`)}},
		{list, nil},
	} {
		if got := toolsPageStub(tc.req, tc.resp); got != tc.resp {
			t.Errorf("%s: response replaced by %+v", tc.req.Method, got)
		}
	}
}

// TestToolsFromPagesFailsOnABadPage checks that a page mcp-go could not
// have decoded fails the list, as it did when mcp-go decoded it.
func TestToolsFromPagesFailsOnABadPage(t *testing.T) {
	if _, err := toolsFromPages([]json.RawMessage{json.RawMessage(`{"tools":{}}`)}); err == nil {
		t.Error("a page whose tools are not a list was accepted")
	}
}
