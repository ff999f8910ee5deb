package mcpclient

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// PIDOf returns the process id of a stdio session's server, so tests can
// kill or stop it.
func PIDOf(s domain.Session) int { return s.(*session).proc.pid }

// CallTool lets tests make a server change its lists.
func CallTool(ctx context.Context, s domain.Session, name string, args map[string]any) (*mcp.CallToolResult, error) {
	return s.(*session).CallTool(ctx, name, args)
}
