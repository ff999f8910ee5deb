package demoserver

import (
	"context"
	"fmt"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// addDefaultsTool registers snapshot_settings, whose schema is shaped the
// way zod writes the schemas of many TypeScript servers (Playwright MCP's
// browser_take_screenshot among them): scale is required and has a
// default, and the server fills the default in itself. It lets a person,
// and the tests, see what a client sent and what the server supplied.
func addDefaultsTool(s *server.MCPServer) {
	s.AddTool(newTool("snapshot_settings", "Snapshot settings",
		"Reports the scale and zoom it was called with, and whether the caller sent scale or the server used its default. "+
			"scale is listed as required and has a default, as zod-generated schemas do; zoom may also be given as a string of digits, which the server reads as a number.",
		readOnlyLocal,
		mcp.WithString("scale", mcp.Required(), mcp.Enum("css", "device"), mcp.DefaultString("css"),
			mcp.Description("css for one pixel per CSS pixel, device for the screen's own pixels.")),
		mcp.WithInteger("zoom", mcp.Description("Zoom in percent."))), snapshotSettings)
}

// snapshotSettings accepts what a lenient TypeScript server accepts: a
// missing scale (its default) and a zoom written as a string.
func snapshotSettings(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	scale, source := "css", "the server's default"
	if v, ok := args["scale"]; ok {
		str, isString := v.(string)
		if !isString || (str != "css" && str != "device") {
			return mcp.NewToolResultError(fmt.Sprintf("scale must be css or device, got %v", v)), nil
		}
		scale, source = str, "sent by the caller"
	}
	zoom := "100"
	switch v := args["zoom"].(type) {
	case nil:
	case float64:
		zoom = strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		if _, err := strconv.Atoi(v); err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("zoom must be a whole number, got %q", v)), nil
		}
		zoom = v
	default:
		return mcp.NewToolResultError(fmt.Sprintf("zoom must be a whole number, got %v", v)), nil
	}
	return mcp.NewToolResultText(fmt.Sprintf("scale %s (%s), zoom %s%%", scale, source, zoom)), nil
}
