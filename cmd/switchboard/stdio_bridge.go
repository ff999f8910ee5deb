package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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

// message is the part of a JSON-RPC message the bridge routes by.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// isRequest reports whether m expects a response.
func (m message) isRequest() bool { return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" }

// relay reads the client's messages until stdin ends, sending each to
// Switchboard. Requests run concurrently, as a client may have several
// calls in flight; notifications and responses go in order, at once.
// A signal ends it at once, even while stdin is quiet.
func (b *bridge) relay(stdin io.Reader) error {
	if _, err := b.reconnect(-1, ""); err != nil {
		return err
	}
	type read struct {
		line []byte
		err  error
	}
	reads := make(chan read)
	go func() { // not in wg: it may stay blocked on stdin until the process ends
		lines := newLineReader(stdin, b.cfg.maxMessageBytes)
		for {
			line, err := lines.next()
			select {
			case reads <- read{line, err}:
			case <-b.ctx.Done():
				return
			}
			if err != nil && !errors.Is(err, errLineTooLong) {
				return
			}
		}
	}()
	for {
		var r read
		select {
		case r = <-reads:
		case <-b.ctx.Done():
			return nil
		}
		switch {
		case errors.Is(r.err, errLineTooLong):
			b.log.Warn("dropped a message from the client larger than --max-message-bytes", "limit", b.cfg.maxMessageBytes)
		case errors.Is(r.err, io.EOF):
			b.waitRequests()
			return nil
		case r.err != nil:
			return fmt.Errorf("stdio: read: %w", r.err)
		default:
			b.dispatch(r.line)
		}
	}
}

// dispatch sends one client message on its way.
func (b *bridge) dispatch(line []byte) {
	var m message
	if err := json.Unmarshal(line, &m); err != nil || line[0] != '{' {
		if line[0] == '[' && json.Valid(line) {
			b.spawn(func() { b.deliver(line, message{}) }) // a batch from an older client
			return
		}
		b.log.Warn("dropped a line from the client that is not a JSON-RPC message")
		b.out.writeError(json.RawMessage("null"), -32700, "parse error: not a JSON-RPC message")
		return
	}
	switch {
	case m.Method == "initialize" && m.isRequest():
		b.mu.Lock()
		b.initialize = append([]byte(nil), line...)
		b.initialized = nil
		b.mu.Unlock()
		b.deliver(line, m) // everything after it needs the session it opens
	case m.Method == "notifications/initialized":
		b.mu.Lock()
		b.initialized = append([]byte(nil), line...)
		b.mu.Unlock()
		b.deliver(line, m)
		b.startListening(b.state())
	case m.isRequest():
		b.spawn(func() { b.deliver(line, m) })
	default:
		b.deliver(line, m)
	}
}

// spawn runs a request's relay in its own goroutine once a slot is free.
func (b *bridge) spawn(fn func()) {
	select {
	case b.slots <- struct{}{}:
	case <-b.ctx.Done():
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer func() { <-b.slots }()
		fn()
	}()
}

// waitRequests waits until every request in flight has its response, so
// a client that closes stdin after its last call still gets the answer.
func (b *bridge) waitRequests() {
	for range maxInFlight {
		select {
		case b.slots <- struct{}{}:
		case <-b.ctx.Done():
			return
		}
	}
}

// deliver POSTs one client message and relays what comes back. When
// Switchboard has gone away or forgotten the session, it reconnects once
// (replaying the client's initialize) and sends the message again.
func (b *bridge) deliver(line []byte, m message) {
	st := b.state()
	answered := false
	out := b.relayOut(m)
	emit := func(msg []byte) {
		if m.isRequest() && answers(msg, m.ID) {
			answered = true
		}
		out(msg)
	}
	for attempt := 0; ; attempt++ {
		err := b.post(b.ctx, st, line, m, emit)
		if err == nil || b.ctx.Err() != nil || answered {
			return
		}
		if errors.Is(err, errGone) && attempt == 0 {
			b.log.Info("Switchboard went away; reconnecting", "error", err)
			if st, err = b.reconnect(st.gen, m.Method); err == nil {
				continue
			}
		}
		b.log.Error("relay a message to Switchboard", "method", m.Method, "error", err)
		if m.isRequest() {
			b.out.writeError(m.ID, -32603, "switchboard stdio: "+err.Error())
		}
		return
	}
}

// answers reports whether msg is the response to the request with id, so
// a stream that breaks after the answer adds no second one.
func answers(msg []byte, id json.RawMessage) bool {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &r) != nil || r.Method != "" {
		return false
	}
	got, err1 := compactJSON(r.ID)
	want, err2 := compactJSON(id)
	return err1 == nil && err2 == nil && bytes.Equal(got, want)
}

// relayOut is what happens to each message Switchboard answers with: it
// goes to stdout, and the answer to initialize also fixes the protocol
// version later requests name in their header.
func (b *bridge) relayOut(m message) func([]byte) {
	if m.Method != "initialize" {
		return b.out.write
	}
	return func(msg []byte) {
		var res struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &res) == nil && res.Result.ProtocolVersion != "" {
			b.mu.Lock()
			b.conn.protocol = res.Result.ProtocolVersion
			b.mu.Unlock()
		}
		b.out.write(msg)
	}
}

// lineWriter writes whole messages to stdout, one per line, from any
// goroutine.
type lineWriter struct {
	mu sync.Mutex // guards w, so lines never interleave
	w  io.Writer
}

func (w *lineWriter) write(msg []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = w.w.Write(append(msg, '\n'))
}

// writeError answers the client's request id with a JSON-RPC error, for
// a request the bridge could not deliver.
func (w *lineWriter) writeError(id json.RawMessage, code int, text string) {
	msg, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": text},
	})
	w.write(msg)
}
