package demoserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/demoserver"
)

// fixedNow is the instant the test clock always reports.
var fixedNow = time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC)

// requestTimeout bounds each request so a hung server fails the test instead
// of stalling it.
const requestTimeout = 10 * time.Second

// newClient starts an in-process client against a fresh demo server with a
// fixed clock and returns it initialized.
func newClient(t *testing.T) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(demoserver.New(demoserver.Options{
		Name:  "test-demo",
		Clock: func() time.Time { return fixedNow },
	}))
	if err != nil {
		t.Fatalf("NewInProcessClient: %v", err)
	}
	initialize(t, c)
	return c
}

// initialize starts c, performs the handshake and closes c when the test ends.
func initialize(t *testing.T, c *client.Client) *mcp.InitializeResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	res, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "demoserver-test", Version: "0"},
	}})
	if err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	return res
}

// callTool calls name with args (never nil, which servers reject) and fails
// the test on a protocol error.
func callTool(t *testing.T, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

// listTools returns the server's tools keyed by name.
func listTools(t *testing.T, c *client.Client) map[string]mcp.Tool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	tools := make(map[string]mcp.Tool, len(res.Tools))
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	return tools
}
