// Package mcpclient implements domain.Connector over mark3labs/mcp-go. It
// owns what mcp-go leaves to its callers: the stdio process group, exit
// detection, HTTP timeouts, lost-connection detection and the mapping of
// failures to domain error categories.
package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Options configures a Connector. Every field has a default.
type Options struct {
	// Auth, when set, carries the credentials of remote servers that use
	// OAuth: every HTTP request to a server goes through the transport it
	// returns. Servers whose settings send their own Authorization header
	// are left alone.
	Auth Authenticator
	// Log receives this package's and mcp-go's log lines. The default
	// discards them, so that mcp-go never falls back to slog.Default.
	Log *slog.Logger
	// ClientName and ClientVersion identify Switchboard at initialize.
	ClientName, ClientVersion string
	// KillGrace is how long a stdio server may take to exit after its stdin
	// closes, and again after SIGTERM, before its process group is killed.
	KillGrace time.Duration
	// ProtocolVersion is the revision to ask for first. The default,
	// 2026-07-28, makes Switchboard a dual-era client: over stdio it probes
	// with server/discover (bounded by discoverBound: a 2025 server
	// answers the unknown method at once, and only one that ignores it
	// costs the bound) and falls back to initialize;
	// over streamable HTTP it sends a 2026-07-28 request and falls back to
	// the handshake on a 4xx without a recognized modern error. The era a
	// server connected with is remembered per configuration, so reconnects
	// do not probe, until a connect with it fails; a stdio fallback that
	// followed an unanswered probe is not remembered (discoverOutcome). A handshake revision
	// (2025-11-25) pins the handshake and skips every probe. Legacy SSE is
	// always on the handshake.
	ProtocolVersion string
	// DialTimeout and TLSHandshakeTimeout bound the first steps of an HTTP
	// request. There is deliberately no overall timeout, and by default no
	// response-header timeout either: each request carries its own context
	// deadline instead (connectTimeoutSeconds for the handshake, the
	// keep-alive interval for a probe), since a server that answers a tool
	// call with plain JSON only once the tool is done must not be cut off
	// by a transport-wide limit, nor the GET stream that carries
	// notifications. ResponseHeaderTimeout, when set, adds such a limit.
	DialTimeout, TLSHandshakeTimeout, ResponseHeaderTimeout time.Duration
	// MaxMessageBytes bounds one message from a server: a stdio line, an
	// HTTP response body, an event of an SSE stream. A stdio server that
	// passes it is killed, since the rest of its output cannot be framed;
	// an HTTP request that passes it fails; an event stream that passes it
	// ends the session. Each is a protocol error. Zero means
	// DefaultMaxMessageBytes.
	MaxMessageBytes int64
	// Notifications receives every log message (notifications/message)
	// and resource update (notifications/resources/updated) a server
	// sends, on the connection's read loop, so it must not block; nil
	// drops them.
	Notifications func(domain.ServerNotification)
	// Workspace is the directory Switchboard serves (the project
	// directory). A server that asks for roots while nobody can be asked
	// gets it as its one root; empty, it gets none. Servers that take
	// their directories from roots (server-filesystem, Playwright MCP) ask
	// as the session starts, when no call is running, and then work in
	// Workspace instead of the directories they were started with.
	Workspace string
	// NoCallAsker answers a server's elicitation that belongs to no call
	// (sent while no call, or several, were running): the dashboard shows
	// it in the server's drawer. Nil refuses it, saying nobody was asked.
	NoCallAsker domain.Asker
}

// Defaults for Options.
const (
	DefaultKillGrace           = 3 * time.Second
	DefaultDialTimeout         = 10 * time.Second
	DefaultTLSHandshakeTimeout = 10 * time.Second
)

// discoverTimeout bounds mcp-go's server/discover probe. It is measured
// from the moment the request is written, which for a stdio server is as
// its process starts, so it must leave room for a slow start on a loaded
// machine: a 2026-07-28 server cut off by it would be taken for a 2025
// one. A 2025 server answers the unknown method at once with an error;
// only one that ignores it costs the whole bound, on its first connect
// (see discoverBound and discoverOutcome for the rest).
const discoverTimeout = 10 * time.Second

// discoverBound is the bound of the server/discover probe of a connect
// that must end by ctx's deadline: discoverTimeout, but at most half the
// time left, so that a server that ignores the probe still has the rest
// for initialize.
func discoverBound(ctx context.Context) time.Duration {
	deadline, ok := ctx.Deadline()
	if !ok {
		return discoverTimeout
	}
	return max(min(discoverTimeout, time.Until(deadline)/2), time.Millisecond)
}

// httpProbeBound is the bound of the modern request that opens a
// streamable HTTP connect: the whole connect budget. A server of either
// era answers a POST at once (a 2025 one with a 4xx), so one that is
// silent is slow or stuck, and the connect waits for it as it would for
// initialize rather than failing at half its budget.
func httpProbeBound(ctx context.Context) time.Duration {
	deadline, ok := ctx.Deadline()
	if !ok {
		return discoverTimeout
	}
	return max(time.Until(deadline), time.Millisecond)
}

// listenWait bounds how long Connect waits for a streamable HTTP server to
// answer the GET stream, so that list changes made right after connecting
// are not lost; a server without the stream is still used.
const listenWait = 2 * time.Second

func (o Options) withDefaults() Options {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.ClientName == "" {
		o.ClientName = "switchboard"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	if o.KillGrace <= 0 {
		o.KillGrace = DefaultKillGrace
	}
	if o.ProtocolVersion == "" {
		o.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = DefaultDialTimeout
	}
	if o.TLSHandshakeTimeout <= 0 {
		o.TLSHandshakeTimeout = DefaultTLSHandshakeTimeout
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxMessageBytes
	}
	return o
}

// Connector opens MCP sessions over stdio, streamable HTTP and legacy SSE.
type Connector struct {
	opts Options
	eras eras // the protocol version each server configuration connected with
}

var _ domain.Connector = (*Connector)(nil)

// New returns a Connector with opts' zero fields set to their defaults.
func New(opts Options) *Connector {
	return &Connector{opts: opts.withDefaults()}
}

// Connect starts or dials the server described by cfg and completes the
// handshake within ctx. Errors are *domain.ConnError values.
func (c *Connector) Connect(ctx context.Context, cfg domain.ServerConfig, stderr io.Writer) (domain.Session, error) {
	var (
		s   *session
		err error
	)
	started := time.Now()
	switch cfg.Transport {
	case domain.TransportStdio:
		s, err = c.connectStdio(ctx, cfg, stderr)
	case domain.TransportHTTP, domain.TransportSSE:
		s, err = c.connectRemote(ctx, cfg)
	default:
		err = &domain.ConnError{Category: domain.CategoryConfig,
			Err: fmt.Errorf("%w: unknown transport %q", errBadConfig, cfg.Transport)}
	}
	if err != nil {
		return nil, withLimit(ctx, started, err)
	}
	return s, nil
}

// withLimit fills in the limit of a handshake timeout that a caller set
// as a plain deadline: only the supervisor's own limit arrives with it.
func withLimit(ctx context.Context, started time.Time, err error) error {
	var hte *domain.HandshakeTimeoutError
	if !errors.As(err, &hte) || hte.Limit != 0 {
		return err
	}
	if d, ok := ctx.Deadline(); ok {
		// The caller set the deadline a moment before calling, longer
		// ago on a loaded machine, so what remained of it here is a
		// little less than the limit it meant: beyond a tenth of a
		// second, the limit is said rounded up to a tenth.
		const tenth = 100 * time.Millisecond
		limit := d.Sub(started).Round(time.Millisecond)
		if limit >= tenth {
			limit = (limit + tenth - 1) / tenth * tenth
		}
		hte.Limit = limit
	}
	return err
}

// newClient builds the mcp-go client. Where the session can answer a
// server's requests (s.asks; not on legacy SSE, whose transport could not
// deliver the answers) it declares elicitation, sampling and roots, which
// Switchboard puts to whoever made the call: on the handshake era through
// serverAsks, on 2026-07-28, where they come as input_required results,
// through inputAnswerer. version is the revision asked for first; a
// 2026-07-28 one makes mcp-go probe with server/discover, within
// discoverBound, before falling back to initialize.
func (c *Connector) newClient(ctx context.Context, s *session, server, version string) {
	caps := mcp.ClientCapabilities{}
	opts := []client.ClientOption{client.WithProtocolVersion(version)}
	if s.asks != nil {
		caps = askCapabilities()
		opts = append(opts, inputAnswerer{server: server, workspace: c.opts.Workspace, people: c.opts.NoCallAsker}.inputOptions()...)
	}
	opts = append(opts, client.WithClientCapabilities(caps))
	if mcp.IsModernProtocol(version) {
		bound := discoverBound(ctx)
		if s.probe != nil {
			bound = httpProbeBound(ctx)
		}
		opts = append(opts, client.WithDiscoverTimeout(bound))
	}
	tr := rawTransport(s.tr, s)
	if s.probe != nil {
		if raw, ok := tr.(rawStreamableHTTP); ok {
			s.probe.rawStreamableHTTP = raw
			tr = s.probe
		}
	}
	s.client = client.NewClient(tr, opts...)
	s.client.OnNotification(s.onNotification)
}

// handshake starts the transport on the session's own long-lived context
// (mcp-go ties the transport's lifetime to it) and initializes within ctx.
func (c *Connector) handshake(ctx context.Context, s *session, version string) error {
	// Ending ctx must also abort work running on the long-lived context,
	// such as the SSE transport waiting for its endpoint event.
	stop := context.AfterFunc(ctx, s.cancel)
	defer stop()
	if err := s.client.Start(s.ctx); err != nil {
		return fmt.Errorf("start transport: %w", err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: c.opts.ClientName, Version: c.opts.ClientVersion}
	res, err := s.client.Initialize(withExchange(ctx, s.handshakeEx), req)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if !stop() {
		return fmt.Errorf("initialize: %w", context.Cause(ctx))
	}
	s.version = s.client.ProtocolVersion()
	s.caps = res.Capabilities
	return nil
}

// handshakeError categorizes a failed handshake: a deadline is a timeout
// whatever mcp-go made of it, and an HTTP status seen on the wire beats the
// string mcp-go turned it into.
func handshakeError(ctx context.Context, s *session, err error) *domain.ConnError {
	err = unrepeated(err)
	if ctx.Err() != nil {
		if hte := handshakeTimeout(ctx); hte != nil {
			return &domain.ConnError{Category: domain.CategoryTimeout, Err: hte}
		}
		return contextError(ctx, err)
	}
	err = s.handshakeEx.explain(err)
	if cat := s.handshakeEx.category(true); cat != "" {
		return &domain.ConnError{Category: cat, Err: err}
	}
	return connError(err)
}

// handshakeTimeout describes a handshake whose ctx ended because its limit
// passed: the supervisor's own limit, which it gives as ctx's cause, or a
// caller's deadline. Any other end of ctx returns nil.
func handshakeTimeout(ctx context.Context) *domain.HandshakeTimeoutError {
	var hte *domain.HandshakeTimeoutError
	if errors.As(context.Cause(ctx), &hte) {
		e := *hte // the caller's value is shared; this one gets Exited
		return &e
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &domain.HandshakeTimeoutError{Step: domain.StepInitialize}
	}
	return nil
}

// Authenticator adds a remote server's OAuth credentials to its requests
// and learns from its refusals. The oauth adapter implements it.
type Authenticator interface {
	// Transport returns the round tripper that requests to cfg's server go
	// through, wrapping base. It is called once per connection attempt.
	Transport(cfg domain.ServerConfig, base http.RoundTripper) http.RoundTripper
}
