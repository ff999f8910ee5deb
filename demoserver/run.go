package demoserver

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Transports accepted by --transport.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
	TransportSSE   = "sse"
)

// shutdownTimeout bounds how long open HTTP streams may delay Run's return
// once ctx ends.
const shutdownTimeout = 5 * time.Second

// CrashError reports that Run stopped because --crash-every fired. It is a
// distinct type so main can exit non-zero, which is what makes a supervisor
// see a crash rather than a clean exit.
type CrashError struct {
	// After is the --crash-every interval that elapsed.
	After time.Duration
}

// Error says how long the server ran before the simulated crash.
func (e *CrashError) Error() string {
	return fmt.Sprintf("demo-server: simulated crash after %s", e.After)
}

// config is the parsed command line.
type config struct {
	transport  string
	addr       string
	crashEvery time.Duration
	name       string
}

// Flags returns the demo-server command's flag set, unparsed, so that
// Switchboard's help text lists exactly the flags Run accepts.
func Flags() *flag.FlagSet {
	var cfg config
	return newFlagSet(&cfg)
}

// newFlagSet declares the demo-server flags, writing into cfg.
func newFlagSet(cfg *config) *flag.FlagSet {
	fs := flag.NewFlagSet("demo-server", flag.ContinueOnError)
	fs.StringVar(&cfg.transport, "transport", TransportStdio, "transport to serve: stdio, http (streamable HTTP at /mcp) or sse (legacy SSE at /sse)")
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:0", "listen address for http and sse; port 0 picks a free port")
	fs.DurationVar(&cfg.crashEvery, "crash-every", 0, "exit with an error after this long, to exercise restarts (0 = never)")
	fs.StringVar(&cfg.name, "name", DefaultName, "server name reported at initialize")
	return fs
}

// parseFlags reads the flags that follow the demo-server subcommand.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := newFlagSet(&cfg)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("demo-server: unexpected argument %q", fs.Arg(0))
	}
	switch cfg.transport {
	case TransportStdio, TransportHTTP, TransportSSE:
	default:
		return config{}, fmt.Errorf("demo-server: unknown transport %q (want stdio, http or sse)", cfg.transport)
	}
	if cfg.crashEvery < 0 {
		return config{}, fmt.Errorf("demo-server: --crash-every must not be negative, got %s", cfg.crashEvery)
	}
	return cfg, nil
}

// Run parses args (the flags after the "demo-server" subcommand) and serves
// until ctx ends, returning nil, or until --crash-every fires, returning a
// *CrashError. In stdio mode stdout carries only the protocol; every log line
// goes to stderr.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	// The slog handler, mcp-go's stdio error logger and Run itself all write
	// to stderr from different goroutines.
	stderr = &lockedWriter{w: stderr}
	// Per-request lines stay at debug so that a crash's stderr tail, which
	// the supervisor shows, holds the lines that explain it.
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

	srv := New(Options{Name: cfg.name, Log: logger})
	fmt.Fprintf(stderr, "demo-server: %s %s starting on %s (%d tools, %d resources, %d prompts)\n",
		cfg.name, Version, cfg.transport, len(srv.ListTools()), len(srv.ListResources()), len(srv.ListPrompts()))

	serveCtx, stop := context.WithCancel(ctx)
	defer stop()
	var crashed atomic.Bool
	if cfg.crashEvery > 0 {
		fmt.Fprintf(stderr, "demo-server: will simulate a crash after %s\n", cfg.crashEvery)
		timer := time.AfterFunc(cfg.crashEvery, func() {
			crashed.Store(true)
			stop()
		})
		defer timer.Stop()
	}

	if cfg.transport == TransportStdio {
		err = serveStdio(serveCtx, srv, stdin, stdout, stderr)
	} else {
		err = serveHTTP(serveCtx, srv, cfg, stdout, stderr, logger)
	}
	if crashed.Load() {
		crash := &CrashError{After: cfg.crashEvery}
		fmt.Fprintln(stderr, crash.Error())
		return crash
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, "demo-server: stopped")
	return nil
}

// serveStdio speaks MCP over stdin/stdout until ctx ends or stdin closes.
func serveStdio(ctx context.Context, srv *server.MCPServer, stdin io.Reader, stdout, stderr io.Writer) error {
	stdio := server.NewStdioServer(srv)
	stdio.SetErrorLogger(log.New(stderr, "demo-server: ", 0))
	fmt.Fprintln(stderr, "demo-server: reading JSON-RPC from stdin")
	err := stdio.Listen(ctx, stdin, stdout)
	if ctx.Err() != nil {
		// Listen reports its own cancellation as an error; ending ctx is how
		// the caller asks for a clean stop.
		return nil
	}
	if err != nil {
		return fmt.Errorf("demo-server: stdio: %w", err)
	}
	return nil
}

// serveHTTP listens on cfg.addr, announces the endpoint URL on stdout and
// serves streamable HTTP or legacy SSE until ctx ends.
func serveHTTP(ctx context.Context, srv *server.MCPServer, cfg config, stdout, stderr io.Writer, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("demo-server: listen %s: %w", cfg.addr, err)
	}
	base := "http://" + dialableAddr(ln.Addr())
	httpSrv := &http.Server{ReadHeaderTimeout: 10 * time.Second}

	var endpoint string
	var shutdown func(context.Context) error
	switch cfg.transport {
	case TransportHTTP:
		h := server.NewStreamableHTTPServer(srv,
			server.WithStreamableHTTPServer(httpSrv),
			server.WithStreamableHTTPLogger(logger))
		mux := http.NewServeMux()
		mux.Handle("/mcp", h)
		httpSrv.Handler = mux
		endpoint, shutdown = base+"/mcp", h.Shutdown
	case TransportSSE:
		h := server.NewSSEServer(srv, server.WithHTTPServer(httpSrv), server.WithBaseURL(base))
		httpSrv.Handler = h
		endpoint, shutdown = base+"/sse", h.Shutdown
	}

	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ln) }()
	fmt.Fprintf(stdout, "demo-server listening on %s\n", endpoint)
	fmt.Fprintf(stderr, "demo-server: listening on %s\n", endpoint)

	select {
	case err := <-served:
		return fmt.Errorf("demo-server: serve %s: %w", endpoint, err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("demo-server: shut down %s: %w", endpoint, err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("demo-server: serve %s: %w", endpoint, err)
	}
	return nil
}

// dialableAddr turns a listener address into one a client can connect to:
// a wildcard host (":0", "0.0.0.0:0") becomes the loopback address.
func dialableAddr(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return addr.String()
	}
	return net.JoinHostPort("127.0.0.1", fmt.Sprint(tcp.Port))
}

// lockedWriter serialises writes so log lines from concurrent goroutines do
// not interleave or race on a non-thread-safe writer such as bytes.Buffer.
type lockedWriter struct {
	mu sync.Mutex // guards w
	w  io.Writer
}

// Write writes p to the underlying writer while holding the lock.
func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
