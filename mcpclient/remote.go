package mcpclient

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// connectRemote dials a streamable HTTP or legacy SSE endpoint. mcp-go
// reports neither a lost HTTP connection nor most status codes, so every
// request goes through an observer that does.
func (c *Connector) connectRemote(ctx context.Context, cfg domain.ServerConfig) (*session, error) {
	if err := checkURL(cfg.URL); err != nil {
		return nil, &domain.ConnError{Category: domain.CategoryConfig, Err: err}
	}
	s := newSession(c.opts.Log.With("server", cfg.Name), c.opts.KillGrace)
	s.onMessage = c.messageSink(cfg.Name)
	// Statuses of requests made on the long-lived context (the SSE stream
	// and the GET stream) count as the handshake's.
	s.ctx = withExchange(s.ctx, s.handshakeEx)
	s.httpTr = c.httpTransport()
	var base http.RoundTripper = s.httpTr
	if c.opts.Auth != nil && !sendsOwnAuthorization(cfg.Headers) {
		base = c.opts.Auth.Transport(cfg, base)
	}
	obs := newObserver(base, s.fail, c.opts.MaxMessageBytes)
	hc := &http.Client{Transport: obs}
	headers := maps.Clone(cfg.Headers)

	version := c.opts.ProtocolVersion
	var err error
	switch cfg.Transport {
	case domain.TransportHTTP:
		var streamable *transport.StreamableHTTP
		streamable, err = transport.NewStreamableHTTP(cfg.URL,
			transport.WithHTTPBasicClient(hc),
			transport.WithHTTPHeaders(headers),
			transport.WithContinuousListening(),
			transport.WithHTTPLogger(mcpgoLogger(s.log)))
		s.tr = streamable
		s.asks = c.serverAsks(s, cfg.Name)
		obs.tap = s.sent.see
		s.answers = &answerPoster{url: cfg.URL, hc: hc, headers: headers, tr: streamable, ctx: s.ctx, log: s.log}
	case domain.TransportSSE:
		// The legacy transport predates 2026-07-28.
		if mcp.IsModernProtocol(version) {
			version = mcp.LATEST_LEGACY_PROTOCOL_VERSION
		}
		var sse *transport.SSE
		sse, err = transport.NewSSE(cfg.URL,
			transport.WithHTTPClient(hc),
			transport.WithHeaders(headers),
			transport.WithSSELogger(mcpgoLogger(s.log)))
		if err == nil {
			sse.SetConnectionLostHandler(func(err error) {
				s.fail(connError(fmt.Errorf("event stream lost: %w", err)))
			})
		}
		s.tr = sse
	}
	if err != nil {
		return nil, &domain.ConnError{Category: domain.CategoryConfig, Err: err}
	}
	c.newClient(s, version)
	if err := c.handshake(ctx, s, version); err != nil {
		ce := handshakeError(ctx, s, err)
		_ = s.Close()
		return nil, ce
	}
	if cfg.Transport == domain.TransportHTTP {
		waitForStream(ctx, obs)
	}
	select {
	case <-s.done: // the GET stream found the server gone already
		err := s.Err()
		_ = s.Close()
		return nil, err
	default:
	}
	return s, nil
}

// checkURL rejects what can never connect, so that it is reported as a
// configuration error rather than retried.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: %w", errBadConfig, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: URL %q: scheme must be http or https", errBadConfig, u.Redacted())
	}
	if u.Host == "" {
		return fmt.Errorf("%w: URL %q has no host", errBadConfig, u.Redacted())
	}
	return nil
}

// httpTransport bounds each step of a request but not the whole of it,
// which http.Client.Timeout would, cutting long calls and the GET stream.
// Each session gets its own, so Close can drop its idle connections.
func (c *Connector) httpTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: c.opts.DialTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   c.opts.TLSHandshakeTimeout,
		ResponseHeaderTimeout: c.opts.ResponseHeaderTimeout,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       90 * time.Second,
		// Every client of the gateway calls through this one session, so
		// dozens of requests can be in flight at once; with fewer idle
		// connections kept, each burst dials anew and drops what it dialled.
		MaxIdleConnsPerHost: 64,
		ForceAttemptHTTP2:   true,
	}
}

// waitForStream gives the GET stream, which mcp-go opens in the background
// after initialize, a moment to be answered: a list change announced
// before it is open is never delivered.
func waitForStream(ctx context.Context, obs *observer) {
	t := time.NewTimer(listenWait)
	defer t.Stop()
	select {
	case <-obs.streamSettled:
	case <-t.C:
	case <-ctx.Done():
	}
}

// sendsOwnAuthorization reports whether the settings give the server an
// Authorization header of their own, which OAuth must not replace.
func sendsOwnAuthorization(headers map[string]string) bool {
	for k := range headers {
		if strings.EqualFold(k, "Authorization") {
			return true
		}
	}
	return false
}
