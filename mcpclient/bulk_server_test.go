package mcpclient_test

import (
	"context"
	"os"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// runBulk serves over stdio one tool, "bulk", whose text result is as many
// bytes as its "bytes" argument asks for: large messages on demand, for the
// limit's tests and the memory benchmark.
func runBulk(ctx context.Context) error {
	s := server.NewMCPServer("bulk", "1.0.0")
	s.AddTool(mcp.NewTool("bulk", mcp.WithNumber("bytes", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strings.Repeat("x", req.GetInt("bytes", 0))), nil
		})
	return server.NewStdioServer(s).Listen(ctx, os.Stdin, os.Stdout)
}

func bulkStdio() domain.ServerConfig {
	return domain.ServerConfig{
		Name:      "bulk",
		Transport: domain.TransportStdio,
		Command:   os.Args[0],
		Env:       map[string]string{serverModeEnv: "bulk"},
	}
}

// endlessStdio is a server that writes one line without end, and the
// file it writes its pid to.
func endlessStdio(dir string) (domain.ServerConfig, string) {
	pidFile := dir + "/endless.pid"
	return domain.ServerConfig{
		Name:      "endless",
		Transport: domain.TransportStdio,
		Command:   "sh",
		Args:      []string{"-c", `echo $$ > "$0"; exec cat /dev/zero`, pidFile},
	}, pidFile
}
