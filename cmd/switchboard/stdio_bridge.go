package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"

	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// gatewayPath is the aggregated MCP endpoint the bridge relays to; with
// --server it relays to gatewayPath + "/" + NAME instead.
const gatewayPath = "/mcp"

// maxInFlight bounds the client's requests relayed at once, so a client
// that floods stdin cannot open connections without end.
const maxInFlight = 32

// stdioConfig is the resolved command line of the stdio command.
type stdioConfig struct {
	addr            string // --addr: where Switchboard listens, or where to start it
	data            string
	server          string // --server: relay to one server's endpoint
	token           string // the client token, or empty for the owner's
	start           bool   // --start: start Switchboard when none answers
	maxMessageBytes int64
}

// stdioFlags is what the stdio command's flag set writes to.
type stdioFlags struct {
	c         stdioConfig
	tokenFile *string
}

// newStdioFlagSet declares the stdio command's flags; the help text lists
// the same set.
func newStdioFlagSet(getenv func(string) string) (*flag.FlagSet, *stdioFlags, error) {
	f := &stdioFlags{}
	fs := flag.NewFlagSet("switchboard stdio", flag.ContinueOnError)
	fs.StringVar(&f.c.addr, "addr", getenv("SWITCHBOARD_ADDR"), "address of the running Switchboard, and where to start one when none runs (env SWITCHBOARD_ADDR; default the one DATA/instance.json names, else "+DefaultAddr+")")
	fs.StringVar(&f.c.data, "data", getenv("SWITCHBOARD_DATA"), "data directory of the Switchboard to relay to (env SWITCHBOARD_DATA; default $XDG_DATA_HOME/switchboard)")
	fs.StringVar(&f.c.server, "server", "", "relay to this one server, its names unchanged (/mcp/NAME), instead of every server (/mcp)")
	f.tokenFile = fs.String("token-file", "", "file holding the client token to connect with (SWITCHBOARD_CLIENT_TOKEN passes the token itself; default the owner's access token)")
	fs.BoolVar(&f.c.start, "start", true, "start Switchboard in the background when none runs for the data directory")
	msgDefault, err := envInt(getenv, "SWITCHBOARD_MAX_MESSAGE_BYTES", mcpclient.DefaultMaxMessageBytes)
	if err != nil {
		return nil, nil, err
	}
	fs.Int64Var(&f.c.maxMessageBytes, "max-message-bytes", msgDefault, "largest message relayed either way, in bytes (env SWITCHBOARD_MAX_MESSAGE_BYTES)")
	return fs, f, nil
}

// parseStdioFlags reads the stdio command's flags and the client token.
func parseStdioFlags(args []string, getenv func(string) string, stderr io.Writer) (stdioConfig, error) {
	fs, f, err := newStdioFlagSet(getenv)
	if err != nil {
		return stdioConfig{}, err
	}
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return stdioConfig{}, err
	}
	if fs.NArg() > 0 {
		return stdioConfig{}, fmt.Errorf("unexpected argument %q (see switchboard help)", fs.Arg(0))
	}
	c := f.c
	if c.maxMessageBytes < 64<<10 {
		return stdioConfig{}, fmt.Errorf("--max-message-bytes must be at least 65536, got %d", c.maxMessageBytes)
	}
	if c.addr != "" {
		if err := checkListenAddr(c.addr, false); err != nil {
			return stdioConfig{}, err
		}
	}
	if c.data, err = dataDir(c.data, getenv); err != nil {
		return stdioConfig{}, err
	}
	switch {
	case *f.tokenFile != "":
		b, err := readClientTokenFile(*f.tokenFile)
		if err != nil {
			return stdioConfig{}, err
		}
		c.token = b
	case getenv("SWITCHBOARD_CLIENT_TOKEN") != "":
		if c.token, err = checkClientToken(getenv("SWITCHBOARD_CLIENT_TOKEN"), "SWITCHBOARD_CLIENT_TOKEN"); err != nil {
			return stdioConfig{}, err
		}
	}
	return c, nil
}

// runStdio relays MCP between this process's stdin and stdout and the
// Switchboard of the data directory, for clients such as Claude Desktop
// that start every server as a command. Stdout carries only JSON-RPC;
// everything said to a person goes to stderr.
func runStdio(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseStdioFlags(args, getenv, stderr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b := newBridge(ctx, cfg, getenv, stdout, slog.New(slog.NewTextHandler(stderr, nil)))
	err = b.relay(stdin)
	b.closeSession()
	cancel() // ends the listening stream and any request still waiting
	b.wg.Wait()
	return err
}

// bridge is one relay between a stdio client and Switchboard's endpoint.
type bridge struct {
	ctx    context.Context // ends when the bridge stops
	cfg    stdioConfig
	getenv func(string) string
	out    *lineWriter
	log    *slog.Logger
	http   *http.Client
	wg     sync.WaitGroup // every goroutine the bridge started
	slots  chan struct{}  // one token per request in flight

	// reconnecting serializes reconnects, which do network I/O, so that
	// several failed requests re-initialize only once.
	reconnecting sync.Mutex

	mu          sync.Mutex // guards the fields below
	conn        connState
	initialize  []byte             // the client's initialize request, replayed after a restart
	initialized []byte             // the client's notifications/initialized, replayed with it
	stopListen  context.CancelFunc // ends the current listening stream
}

// connState is what each request to Switchboard carries; gen counts
// reconnects so a request that failed can tell whether someone else has
// already reconnected since it started.
type connState struct {
	endpoint string
	token    string
	session  string
	protocol string
	gen      int
}

func newBridge(ctx context.Context, cfg stdioConfig, getenv func(string) string, stdout io.Writer, log *slog.Logger) *bridge {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // Switchboard is local; a proxy would see the token
	return &bridge{
		ctx: ctx, cfg: cfg, getenv: getenv, log: log,
		out:   &lineWriter{w: stdout},
		http:  &http.Client{Transport: tr},
		slots: make(chan struct{}, maxInFlight),
		conn:  connState{gen: -1},
	}
}

// endpointURL is the MCP endpoint under base for this bridge's --server.
func (b *bridge) endpointURL(base string) string {
	if b.cfg.server == "" {
		return base + gatewayPath
	}
	return base + gatewayPath + "/" + url.PathEscape(b.cfg.server)
}

func (b *bridge) state() connState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.conn
}
