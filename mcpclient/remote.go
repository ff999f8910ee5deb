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

// connectRemote dials a streamable HTTP or legacy SSE endpoint. Over
// streamable HTTP it is a dual-era client: it asks for the version the
// server connected with last time, else 2026-07-28, and tries the other
// era once when the server's answer says it speaks only that one. The era
// that worked is remembered for the configuration; one that fails is
// forgotten.
func (c *Connector) connectRemote(ctx context.Context, cfg domain.ServerConfig) (*session, error) {
	if err := checkURL(cfg.URL); err != nil {
		return nil, &domain.ConnError{Category: domain.CategoryConfig, Err: err}
	}
	if cfg.Transport != domain.TransportHTTP {
		s, _, err := c.dialRemote(ctx, cfg, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
		return s, err
	}
	key := cfg.Fingerprint()
	s, next, err := c.dialRemote(ctx, cfg, c.preferredVersion(key))
	if err != nil {
		c.eras.forget(key)
		if next == "" || c.opts.pinnedLegacy() || ctx.Err() != nil {
			return nil, err
		}
		c.opts.Log.Debug("trying the other protocol era", "server", cfg.Name, "version", next, "error", err)
		if s, _, err = c.dialRemote(ctx, cfg, next); err != nil {
			return nil, err
		}
	}
	c.eras.remember(key, s.version)
	return s, nil
}

// dialRemote connects asking for version. When the attempt fails in a way
// that says the server speaks only the other era, next names the version
// to try instead.
func (c *Connector) dialRemote(ctx context.Context, cfg domain.ServerConfig, version string) (_ *session, next string, _ error) {
	modern := cfg.Transport == domain.TransportHTTP && mcp.IsModernProtocol(version)
	s := newSession(c.opts.Log.With("server", cfg.Name), c.opts.KillGrace)
	s.onMessage = c.messageSink(cfg.Name)
	// Statuses of requests made on the long-lived context (the SSE stream
	// and the GET stream) count as the handshake's.
	s.ctx = withExchange(s.ctx, s.handshakeEx)
	s.httpTr = c.httpTransport()
	var base http.RoundTripper = s.httpTr
	signIn := c.opts.Auth != nil && !sendsOwnAuthorization(cfg.Headers)
	if signIn {
		base = c.opts.Auth.Transport(cfg, base)
	}
	obs := newObserver(base, s.fail, c.opts.MaxMessageBytes)
	obs.signIn = signIn
	hc := &http.Client{Transport: obs}
	headers := maps.Clone(cfg.Headers)

	var err error
	switch cfg.Transport {
	case domain.TransportHTTP:
		opts := []transport.StreamableHTTPCOption{
			transport.WithHTTPBasicClient(hc),
			transport.WithHTTPHeaders(headers),
			transport.WithHTTPLogger(mcpgoLogger(s.log)),
		}
		if modern {
			// 2026-07-28 has no standalone GET stream: changes come on
			// subscriptions/listen (see listen).
			s.probe = &modernProbe{}
		} else {
			opts = append(opts, transport.WithContinuousListening())
		}
		var streamable *transport.StreamableHTTP
		streamable, err = transport.NewStreamableHTTP(cfg.URL, opts...)
		s.tr = streamable
		s.asks = c.serverAsks(s, cfg.Name)
		obs.tap = s.sent.see
		s.answers = &answerPoster{url: cfg.URL, hc: hc, headers: headers, tr: streamable, ctx: s.ctx, log: s.log}
	case domain.TransportSSE:
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
		return nil, "", &domain.ConnError{Category: domain.CategoryConfig, Err: err}
	}
	c.newClient(ctx, s, cfg.Name, version)
	if err := c.handshake(ctx, s, version); err != nil {
		if s.probe != nil {
			err = s.probe.failure(err)
		}
		ce := handshakeError(ctx, s, err)
		if cfg.Transport == domain.TransportHTTP && ctx.Err() == nil {
			next = otherEra(s, version, err)
		}
		_ = s.Close()
		return nil, next, ce
	}
	switch {
	case mcp.IsModernProtocol(s.version):
		s.listen()
	case cfg.Transport == domain.TransportHTTP:
		waitForStream(ctx, obs)
	}
	select {
	case <-s.done: // the GET stream found the server gone already
		err := s.Err()
		_ = s.Close()
		return nil, "", err
	default:
	}
	return s, "", nil
}

// otherEra returns the version worth trying after a failed streamable HTTP
// handshake that asked for version, or "" when the failure says nothing
// about the era.
func otherEra(s *session, version string, err error) string {
	status := s.handshakeEx.lastStatus()
	if s.probe != nil {
		lost := false
		select {
		case <-s.done:
			lost = true
		default:
		}
		if s.probe.refused(status, lost) {
			return mcp.LATEST_LEGACY_PROTOCOL_VERSION
		}
		return ""
	}
	if !mcp.IsModernProtocol(version) && legacyRefused(status, err) {
		return mcp.LATEST_PROTOCOL_VERSION
	}
	return ""
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
