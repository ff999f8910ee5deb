package mcpclient

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// toolsPageStub hands mcp-go an empty page in place of a stdio server's
// tools/list page, keeping only its cursor so that mcp-go still follows
// and checks the pages. mcp-go keeps every tool it lists, decoded schemas
// and all, for the life of the session, to mirror x-mcp-header arguments
// into HTTP headers that stdio never sends: at a team's 200 servers that
// copy was megabytes of heap nothing read. Switchboard reads the page as
// the server sent it (see toolsFromPages), which the transport has already
// captured. Anything but a successful page that is a JSON object, such as
// an error or a 2026-07-28 request for more input, reaches mcp-go as sent.
func toolsPageStub(req transport.JSONRPCRequest, resp *transport.JSONRPCResponse) *transport.JSONRPCResponse {
	if req.Method != string(mcp.MethodToolsList) || resp == nil || resp.Error != nil || resp.Result == nil {
		return resp
	}
	members := domain.JSONMembers(resp.Result)
	if members == nil || members["resultType"] != nil && needsInput(resp.Result) {
		return resp
	}
	stub := []byte(`{"tools":[]`)
	if cursor := members["nextCursor"]; cursor != nil {
		stub = append(append(append(stub, `,"nextCursor":`...), cursor...), '}')
	} else {
		stub = append(stub, '}')
	}
	out := *resp
	out.Result = stub
	return &out
}

// toolsFromPages decodes the tools of every page of a tools/list, as
// mcp-go would have, for a session whose transport gave mcp-go only
// toolsPageStub.
func toolsFromPages(pages []json.RawMessage) ([]mcp.Tool, error) {
	var tools []mcp.Tool
	for _, page := range pages {
		var res mcp.ListToolsResult
		if err := json.Unmarshal(page, &res); err != nil {
			return nil, fmt.Errorf("failed to unmarshal response: %w", err)
		}
		tools = append(tools, res.Tools...)
	}
	return tools, nil
}

// stubsToolPages reports whether the session's transport hands mcp-go
// toolsPageStub in place of each tools/list page.
func (s *session) stubsToolPages() bool {
	_, ok := s.client.GetTransport().(rawStdio)
	return ok
}
