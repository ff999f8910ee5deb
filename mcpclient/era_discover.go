package mcpclient

import (
	"encoding/json"
	"slices"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// checkDiscover turns an answer to server/discover that names no
// 2026-07-28 version into an error, so that mcp-go falls back to the
// handshake. Some 2025 servers answer every method they do not know with
// an empty result (the official conformance mocks do), and mcp-go would
// take that for a stateless server and never send initialize.
func checkDiscover(req transport.JSONRPCRequest, resp *transport.JSONRPCResponse) *transport.JSONRPCResponse {
	if req.Method != string(mcp.MethodServerDiscover) || resp == nil || resp.Error != nil {
		return resp
	}
	var res struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if json.Unmarshal(resp.Result, &res) == nil && slices.ContainsFunc(res.SupportedVersions, mcp.IsModernProtocol) {
		return resp
	}
	out := *resp
	out.Result = nil
	out.Error = &mcp.JSONRPCErrorDetails{Code: mcp.METHOD_NOT_FOUND,
		Message: "server/discover was answered without a 2026-07-28 version"}
	return &out
}
