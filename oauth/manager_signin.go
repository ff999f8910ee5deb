package oauth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// flow is a sign-in waiting for its callback. It is used once, expires
// after FlowTTL, and belongs to the server and address it was started for.
type flow struct {
	server   string
	url      string
	md       Metadata
	client   Client
	verifier string
	redirect string
	scopes   []string
	expires  time.Time
}

// Start discovers the server's authorization server, settles on a client
// identity and returns the authorization URL for the person's browser.
func (m *Manager) Start(ctx context.Context, name string) (_ string, err error) {
	defer func() { err = m.redacted(name, err) }()
	m.mu.Lock()
	s := m.servers[name]
	if s == nil || s.cfg.URL == "" {
		m.mu.Unlock()
		return "", fmt.Errorf("sign in to %s: %w", name, domain.ErrNoSignIn)
	}
	cfg := s.cfg
	var ch Challenge
	if s.challenge != nil {
		ch = *s.challenge
	}
	stepUp := s.moreAccess
	if stepUp {
		// Step up: ask for what is granted and what was refused.
		var dropped int
		ch.Scopes, dropped = union(s.grantedScopes(), s.wanted)
		m.noteDroppedLocked(s, "more access", dropped)
	}
	manual := s.client
	redirect := m.redirect
	m.mu.Unlock()

	md, err := Discover(ctx, m.httpFor(cfg.URL), cfg.URL, ch)
	if err != nil {
		return "", m.startFailed(name, domain.AuthFailed, fmt.Errorf("sign in to %s: %w", name, err))
	}
	m.mu.Lock()
	s.md = &md
	s.oauth = true
	m.noteDroppedLocked(s, "metadata", md.DroppedScopes)
	m.mu.Unlock()

	c, err := m.clientFor(ctx, cfg, md, manual)
	if errors.Is(err, domain.ErrNeedsClientID) {
		detail := ""
		if !errors.Is(err, ErrNoRegistration) {
			detail = detailOf(err)
		}
		m.mu.Lock()
		changed := s.setState(domain.AuthNeedsClientID, detail)
		m.mu.Unlock()
		if changed {
			m.changed(name)
		}
		return "", fmt.Errorf("sign in to %s: %w", name, err)
	}
	if err != nil {
		return "", m.startFailed(name, domain.AuthFailed, fmt.Errorf("sign in to %s: %w", name, err))
	}
	var configured []string
	if cfg.OAuth != nil {
		configured = cfg.OAuth.Scopes
	}
	if stepUp && len(configured) > 0 {
		var dropped int
		configured, dropped = union(configured, ch.Scopes)
		m.mu.Lock()
		m.noteDroppedLocked(s, "more access", dropped)
		m.mu.Unlock()
	}
	scopes := Scopes(md, ch, configured)
	req, err := AuthorizationRequest(md, c, redirect, scopes)
	if err != nil {
		return "", m.startFailed(name, domain.AuthFailed, fmt.Errorf("sign in to %s: %w", name, err))
	}

	m.mu.Lock()
	now := m.opts.Clock.Now()
	for state, f := range m.flows {
		if !now.Before(f.expires) {
			delete(m.flows, state)
		}
	}
	m.flows[req.State] = &flow{server: name, url: cfg.URL, md: md, client: c, redirect: redirect,
		verifier: req.Verifier, scopes: scopes, expires: now.Add(FlowTTL)}
	changed := s.setState(domain.AuthSigningIn, "")
	m.mu.Unlock()
	if changed {
		m.changed(name)
	}
	// Say so when the browser never comes back.
	expiry := m.opts.Clock.NewTimer(FlowTTL)
	go func() {
		<-expiry.C()
		m.changed(name)
	}()
	m.opts.Log.Info("sign-in started", "server", name, "issuer", md.Issuer, "client", c.Kind)
	return req.URL, nil
}

// startFailed records err as the server's state and returns it.
func (m *Manager) startFailed(name string, state domain.AuthState, err error) error {
	m.mu.Lock()
	changed := false
	if s := m.servers[name]; s != nil {
		s.oauth = true
		changed = s.setState(state, detailOf(err))
	}
	m.mu.Unlock()
	if changed {
		m.changed(name)
	}
	return err
}

// clientFor settles how Switchboard identifies itself to md's server, in
// the order: the settings' clientId, a client ID metadata document where
// supported, a client a person typed in, a stored registration, a new
// dynamic registration (stored). With none possible it returns an error
// matching domain.ErrNeedsClientID.
func (m *Manager) clientFor(ctx context.Context, cfg domain.ServerConfig, md Metadata, manual *Client) (Client, error) {
	if o := cfg.OAuth; o != nil && o.ClientID != "" {
		return Client{ID: o.ClientID, Secret: o.ClientSecret, AuthMethod: authMethodFor(md, o.ClientSecret), Kind: ClientSettings}, nil
	}
	cimd := m.opts.ClientMetadataURL
	if o := cfg.OAuth; o != nil && o.ClientMetadataURL != "" {
		cimd = o.ClientMetadataURL
	}
	if cimd != "" && md.ClientIDMetadataDocumentSupported {
		return Client{ID: cimd, AuthMethod: AuthMethodNone, Kind: ClientMetadataDocument}, nil
	}
	if manual != nil && manual.Kind == ClientManual {
		return *manual, nil
	}
	if c, ok, err := m.loadRegistration(ctx, md.Issuer); err != nil {
		return Client{}, err
	} else if ok {
		return c, nil
	}
	c, err := Register(ctx, m.httpFor(cfg.URL), md, m.redirectURI(), ClientName)
	if err != nil {
		return Client{}, fmt.Errorf("%w: %w", domain.ErrNeedsClientID, err)
	}
	if err := m.saveRegistration(ctx, md.Issuer, c); err != nil {
		m.opts.Log.Warn("keep registration", "issuer", md.Issuer, "error", err)
	}
	return c, nil
}

// authMethodFor picks how a client with secret authenticates at md's
// token endpoint: none without a secret, else Basic unless the server
// lists only client_secret_post.
func authMethodFor(md Metadata, secret string) string {
	if secret == "" {
		return AuthMethodNone
	}
	for _, m := range md.TokenAuthMethods {
		if m == AuthMethodBasic {
			return AuthMethodBasic
		}
	}
	for _, m := range md.TokenAuthMethods {
		if m == AuthMethodPost {
			return AuthMethodPost
		}
	}
	return AuthMethodBasic
}

// SetClient records a client a person registered by hand. It is kept for
// the server's authorization server (when known) so that it survives a
// restart.
func (m *Manager) SetClient(ctx context.Context, name, clientID, clientSecret string) error {
	if clientID == "" {
		return fmt.Errorf("set client for %s: the client ID is empty", name)
	}
	m.mu.Lock()
	s := m.servers[name]
	if s == nil || s.cfg.URL == "" {
		m.mu.Unlock()
		return fmt.Errorf("set client for %s: %w", name, domain.ErrNoSignIn)
	}
	var md Metadata
	if s.md != nil {
		md = *s.md
	}
	c := Client{ID: clientID, Secret: clientSecret, AuthMethod: authMethodFor(md, clientSecret), Kind: ClientManual}
	s.client = &c
	s.oauth = true
	changed := s.setState(domain.AuthSignInNeeded, "")
	m.mu.Unlock()
	if md.Issuer != "" {
		if err := m.saveRegistration(ctx, md.Issuer, c); err != nil {
			return fmt.Errorf("set client for %s: %w", name, err)
		}
	}
	if changed {
		m.changed(name)
	}
	return nil
}

// redactedError is an error whose words went through a server's redactor:
// it quotes addresses and an authorization server's answers, which can
// carry the server URL's query secrets or echo a client secret. It still
// unwraps to the original for errors.Is.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redacted returns err with its words redacted by the redactor of name's
// configuration (its headers' and oauth key's secrets, and the generic
// patterns); nil stays nil.
func (m *Manager) redacted(name string, err error) error {
	if err == nil {
		return nil
	}
	r := domain.NewRedactor()
	m.mu.Lock()
	if s := m.servers[name]; s != nil {
		r = s.cfg.Redactor()
	}
	m.mu.Unlock()
	msg := r.Redact(err.Error())
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}
