package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/url"
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

// Complete finishes the sign-in the callback belongs to.
func (m *Manager) Complete(ctx context.Context, q url.Values) (name string, err error) {
	return m.complete(ctx, "", q)
}

// CompleteFor finishes a sign-in from an address pasted for server. The
// state names the sign-in it finishes; one of another server is refused
// before it is spent, so that pasting into the wrong drawer neither signs
// the other server in unseen nor loses its sign-in.
func (m *Manager) CompleteFor(ctx context.Context, server string, q url.Values) error {
	_, err := m.complete(ctx, server, q)
	return err
}

// complete finishes the sign-in q's state belongs to; a non-empty expect
// is the only server it may belong to.
func (m *Manager) complete(ctx context.Context, expect string, q url.Values) (name string, err error) {
	defer func() { err = m.redacted(name, err) }()
	state := q.Get("state")
	m.mu.Lock()
	f := m.flows[state]
	if f != nil && expect != "" && f.server != expect {
		m.mu.Unlock()
		return expect, fmt.Errorf("sign in to %s: the address belongs to the sign-in of %s: %w", expect, f.server, domain.ErrSignInOtherServer)
	}
	delete(m.flows, state)
	now := m.opts.Clock.Now()
	var (
		s      *server
		curURL string
	)
	if f != nil {
		if s = m.servers[f.server]; s != nil {
			curURL = s.cfg.URL // Transport writes cfg under m.mu
		}
	}
	m.mu.Unlock()
	if f == nil || state == "" || !now.Before(f.expires) {
		return "", domain.ErrSignInUnknown
	}
	if s == nil || curURL != f.url {
		return f.server, errAddressChanged(f.server)
	}
	// RFC 9207: the issuer is checked on error responses too, so that
	// another server's words are never shown as this one's.
	if err := CheckIssuer(f.md, q.Get("iss")); err != nil {
		return f.server, m.startFailed(f.server, domain.AuthFailed, fmt.Errorf("sign in to %s: %w", f.server, err))
	}
	if code := q.Get("error"); code != "" {
		words := code
		if d := q.Get("error_description"); d != "" {
			words += ": " + d
		}
		st := domain.AuthFailed
		if code == "access_denied" {
			st = domain.AuthSignInNeeded
		}
		return f.server, m.startFailed(f.server, st, fmt.Errorf("the authorization server refused the sign-in: %s", words))
	}
	// The state is spent: a browser closing the tab must not abandon the
	// exchange of a code that cannot be presented again.
	ectx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	tok, err := Exchange(ectx, m.httpFor(f.url), f.md, f.client, f.redirect, q.Get("code"), f.verifier)
	if err != nil {
		return f.server, m.startFailed(f.server, domain.AuthFailed, fmt.Errorf("sign in to %s: %w", f.server, err))
	}
	if len(tok.Scopes) == 0 {
		tok.Scopes = f.scopes
	}
	tok.expiresFrom(now)
	rec := tokenRecord{URL: f.url, Metadata: f.md, Client: f.client, Token: tok, Obtained: now}
	sctx, cancel := background()
	defer cancel()
	// A new grant: under the grant lock its save and the new generation
	// come together, so a refresh of the old grant in flight can neither
	// overwrite what is stored nor replace what is used.
	s.grantMu.Lock()
	// The exchange took time: a settings change meanwhile may have
	// replaced the entry or moved the server to another address, and these
	// tokens must not be saved under its name for the new one.
	if !m.signInCurrent(s, f.url) {
		s.grantMu.Unlock()
		m.opts.Log.Info("sign-in for a changed address discarded", "server", f.server)
		_ = Revoke(sctx, m.httpFor(f.url), f.md, f.client, tok)
		return f.server, errAddressChanged(f.server)
	}
	if err := m.saveTokens(sctx, f.server, rec); err != nil {
		m.opts.Log.Warn("keep sign-in", "server", f.server, "error", err)
	}
	m.mu.Lock()
	if m.servers[s.name] != s || s.cfg.URL != f.url {
		// Changed while saving: the record names the old address, which
		// the new entry does not load.
		m.mu.Unlock()
		s.grantMu.Unlock()
		m.opts.Log.Info("sign-in for a changed address discarded", "server", f.server)
		_ = Revoke(sctx, m.httpFor(f.url), f.md, f.client, tok)
		return f.server, errAddressChanged(f.server)
	}
	m.stopRetryLocked(s)
	md, c := f.md, f.client
	s.md, s.client, s.tok, s.got = &md, &c, &tok, now
	s.oauth, s.loaded = true, true
	s.failures, s.retryAt = 0, time.Time{}
	s.moreAccess, s.wanted, s.challenge = false, nil, nil
	s.gen++
	s.setState(domain.AuthSignedIn, "")
	m.mu.Unlock()
	s.grantMu.Unlock()
	m.changed(f.server)
	m.opts.Log.Info("signed in", "server", f.server, "issuer", md.Issuer)
	return f.server, nil
}

// signInCurrent reports whether s is still the server's entry and still
// for the address a sign-in began with.
func (m *Manager) signInCurrent(s *server, addr string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.servers[s.name] == s && s.cfg.URL == addr
}

// errAddressChanged is the failure of a sign-in whose server moved to
// another address (or was removed) before it finished.
func errAddressChanged(name string) error {
	return fmt.Errorf("sign in to %s: the server's address changed during the sign-in; sign in again: %w", name, domain.ErrSignInUnknown)
}

// SignOut revokes and forgets the server's tokens and its pending flows.
func (m *Manager) SignOut(ctx context.Context, name string) (err error) {
	defer func() { err = m.redacted(name, err) }()
	m.mu.Lock()
	s := m.servers[name]
	if s == nil || !s.oauth {
		m.mu.Unlock()
		return fmt.Errorf("sign out of %s: %w", name, domain.ErrNoSignIn)
	}
	var (
		tok *Token
		md  Metadata
		c   Client
	)
	serverURL := s.cfg.URL
	if s.tok != nil && s.md != nil && s.client != nil {
		tok, md, c = s.tok, *s.md, *s.client
	}
	m.stopRetryLocked(s)
	for state, f := range m.flows {
		if f.server == name {
			delete(m.flows, state)
		}
	}
	s.tok, s.failures, s.retryAt = nil, 0, time.Time{}
	s.moreAccess, s.wanted = false, nil
	s.gen++
	gen := s.gen
	s.setState(domain.AuthSignInNeeded, "")
	m.mu.Unlock()

	if tok != nil {
		if err := Revoke(ctx, m.httpFor(serverURL), md, c, *tok); err != nil {
			m.opts.Log.Info("revocation refused; tokens forgotten anyway", "server", name, "error", detailOf(err))
		}
	}
	// After any save of a refresh that began before the sign-out, and
	// not after a sign-in that completed since.
	s.grantMu.Lock()
	m.mu.Lock()
	current := s.gen == gen
	m.mu.Unlock()
	if current {
		err = m.opts.Store.DeleteTokens(ctx, name)
	}
	s.grantMu.Unlock()
	m.changed(name)
	m.opts.Log.Info("signed out", "server", name)
	if err != nil {
		return fmt.Errorf("sign out of %s: %w", name, err)
	}
	return nil
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
