package mcpclient_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/demoserver"
)

// The test binary doubles as the servers the tests talk to: started with
// serverModeEnv set, it serves MCP instead of running tests. That gives
// real subprocesses without building anything else first.
const (
	serverModeEnv = "SWITCHBOARD_TEST_SERVER"
	// pidFileEnv names a file the server writes its pid to before it
	// serves, so that a test knows it even when a wrapper started it.
	pidFileEnv = "SWITCHBOARD_TEST_PIDFILE"
)

// Fixture server shape: fixtureTools tools listed fixturePageSize per page,
// plus the "grow" tool, which adds one more and so announces a change.
const (
	fixtureTools    = 5
	fixturePageSize = 2
)

func TestMain(m *testing.M) {
	switch os.Getenv(serverModeEnv) {
	case "demo":
		os.Exit(serve(runDemo))
	case "fixture":
		os.Exit(serve(runFixture))
	case "bulk":
		os.Exit(serve(runBulk))
	case "canned":
		os.Exit(serve(runCanned))
	case "asking":
		os.Exit(serve(runAsking))
	}
	os.Exit(m.Run())
}

func serve(run func(ctx context.Context) error) int {
	if f := os.Getenv(pidFileEnv); f != "" {
		if err := os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func runDemo(ctx context.Context) error {
	return demoserver.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// runFixture serves a small mcp-go server whose tools list takes several
// pages and can change on demand: over stdio, or with "--http ADDR" over
// streamable HTTP with sessions that a restart forgets.
func runFixture(ctx context.Context) error {
	s := server.NewMCPServer("fixture", "1.0.0",
		server.WithToolCapabilities(true),
		server.WithPaginationLimit(fixturePageSize))
	ok := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	}
	for i := range fixtureTools {
		s.AddTool(mcp.NewTool(fmt.Sprintf("tool-%d", i)), ok)
	}
	s.AddTool(mcp.NewTool("grow", mcp.WithDescription("Adds the tool 'grown'.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.AddTool(mcp.NewTool("grown"), ok)
			return mcp.NewToolResultText("grown"), nil
		})
	if len(os.Args) == 3 && os.Args[1] == "--http" {
		return serveFixtureHTTP(ctx, s, os.Args[2])
	}
	return server.NewStdioServer(s).Listen(ctx, os.Stdin, os.Stdout)
}

// serveFixtureHTTP serves s with a session manager that, unlike mcp-go's
// default, rejects session IDs it did not issue, as a restarted stateful
// server does.
func serveFixtureHTTP(ctx context.Context, s *server.MCPServer, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	h := server.NewStreamableHTTPServer(s, server.WithSessionIdManager(&server.InsecureStatefulSessionIdManager{}))
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("fixture listening on http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
