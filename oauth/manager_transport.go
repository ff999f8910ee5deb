package oauth

import (
	"context"
	"io"
	"net/http"
	"net/url"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Transport returns the round tripper for one connection attempt to cfg's
// server: it adds the bearer token, renews it ahead of expiry, retries a
// request once after a 401 when a refresh succeeds, and learns from 401
// and 403 answers what the server needs.
func (m *Manager) Transport(cfg domain.ServerConfig, base http.RoundTripper) http.RoundTripper {
	m.mu.Lock()
	s := m.serverLocked(cfg.Name)
	if s.cfg.URL != "" && s.cfg.URL != cfg.URL {
		// Tokens and discovery belong to the old address.
		m.resetLocked(s)
		s = m.serverLocked(cfg.Name)
	}
	s.cfg = cfg
	if cfg.OAuth != nil {
		s.oauth = true
	}
	m.mu.Unlock()
	m.ensureLoaded(cfg.Name)
	b := &bearer{m: m, name: cfg.Name, base: base}
	if u, err := url.Parse(cfg.URL); err == nil && u.Host != "" {
		b.origin = originOf(u)
	}
	return b
}

// resetLocked forgets everything learnt about s and its pending flows;
// m.mu is held. A refresh still in flight finishes on the forgotten entry.
func (m *Manager) resetLocked(s *server) {
	m.stopRetryLocked(s)
	for state, f := range m.flows {
		if f.server == s.name {
			delete(m.flows, state)
		}
	}
	delete(m.servers, s.name)
}

// bearer is the round tripper Transport returns.
type bearer struct {
	m    *Manager
	name string
	base http.RoundTripper
	// origin is the server's scheme://host[:port]: the token is sent only
	// there. The HTTP client calls RoundTrip again for every redirect, so
	// without this a server (or anyone on a plain-http hop) answering a
	// redirect to another host would receive the token.
	origin string
}

func (b *bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	if b.origin == "" || originOf(req.URL) != b.origin {
		return b.base.RoundTrip(req)
	}
	access := b.m.accessToken(req.Context(), b.name)
	resp, err := b.base.RoundTrip(withBearer(req, access))
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		ch, _ := BearerChallenge(resp)
		fresh, ok := b.m.unauthorized(req.Context(), b.name, ch, access)
		if !ok {
			return resp, nil
		}
		again, ok := rewind(req)
		if !ok {
			return resp, nil
		}
		drain(resp)
		resp, err = b.base.RoundTrip(withBearer(again, fresh))
		if err == nil && resp.StatusCode == http.StatusUnauthorized {
			ch, _ := BearerChallenge(resp)
			b.m.refused(b.name, ch)
		}
		return resp, err
	case http.StatusForbidden:
		if ch, ok := BearerChallenge(resp); ok && ch.Error == "insufficient_scope" {
			b.m.needsMoreAccess(b.name, ch)
		}
	}
	return resp, nil
}

// withBearer returns req carrying access, leaving req itself unchanged as
// a RoundTripper must.
func withBearer(req *http.Request, access string) *http.Request {
	if access == "" {
		return req
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+access)
	return r
}

// rewind returns req ready to be sent again, or false when its body cannot
// be read a second time.
func rewind(req *http.Request) (*http.Request, bool) {
	r := req.Clone(req.Context())
	if req.Body == nil || req.Body == http.NoBody {
		return r, true
	}
	if req.GetBody == nil {
		return nil, false
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, false
	}
	r.Body = body
	return r, true
}

// drain reads a little of a response nobody will see, so its connection
// can be reused, and closes it.
func drain(resp *http.Response) {
	_, _ = io.CopyN(io.Discard, resp.Body, 4096)
	_ = resp.Body.Close()
}

// accessToken returns the access token to send to name, renewing it first
// when it is about to expire. It returns "" when there is none.
func (m *Manager) accessToken(ctx context.Context, name string) string {
	m.mu.Lock()
	s := m.servers[name]
	if s == nil || s.tok == nil {
		m.mu.Unlock()
		return ""
	}
	access := s.tok.Access
	need := m.dueLocked(s)
	m.mu.Unlock()
	if need {
		if fresh, err := m.refresh(ctx, name, access); err == nil {
			return fresh
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.tok == nil {
		return ""
	}
	return s.tok.Access
}

// dueLocked reports whether s's token expires within max(60 s, 10% of its
// lifetime) and may be renewed now; m.mu is held. A token without a known
// expiry is renewed only when the server refuses it.
func (m *Manager) dueLocked(s *server) bool {
	tok := s.tok
	if tok.Expiry.IsZero() || tok.Refresh == "" || s.refreshing != nil {
		return false
	}
	now := m.opts.Clock.Now()
	if now.Before(s.retryAt) {
		return false
	}
	skew := max(refreshSkew, tok.Expiry.Sub(s.got)/10)
	return !now.Before(tok.Expiry.Add(-skew))
}

// unauthorized handles a 401 to a request that carried used (maybe ""):
// it returns a token worth retrying with, renewing the refused one once,
// or records that a person must sign in.
func (m *Manager) unauthorized(ctx context.Context, name string, ch Challenge, used string) (string, bool) {
	m.mu.Lock()
	s := m.serverLocked(name)
	s.oauth = true
	m.noteDroppedLocked(s, "challenge", ch.DroppedScopes)
	if s.challenge == nil {
		c := ch
		s.challenge = &c
	}
	if s.tok != nil && s.tok.Access != used {
		fresh := s.tok.Access // renewed meanwhile
		m.mu.Unlock()
		return fresh, true
	}
	canRefresh := s.tok != nil && s.tok.Refresh != "" && s.md != nil && s.client != nil
	m.mu.Unlock()
	if canRefresh {
		fresh, err := m.refresh(ctx, name, used)
		if err == nil {
			return fresh, true
		}
		return "", false
	}
	m.refused(name, ch)
	return "", false
}

// refused records that the server refused the tokens it was sent (or
// their absence): a person must sign in.
func (m *Manager) refused(name string, ch Challenge) {
	m.mu.Lock()
	s := m.serverLocked(name)
	s.oauth = true
	hadTokens := s.tok != nil
	s.tok = nil
	changed := hadTokens
	switch s.state {
	case domain.AuthSigningIn, domain.AuthNeedsClientID, domain.AuthFailed:
		// A person is already at it, or must act first.
	default:
		if s.state != domain.AuthSignInNeeded {
			c := ch
			s.challenge = &c // the refusal that calls for this sign-in
		}
		changed = s.setState(domain.AuthSignInNeeded, "") || changed
	}
	m.mu.Unlock()
	if hadTokens {
		ctx, cancel := background()
		defer cancel()
		if err := m.opts.Store.DeleteTokens(ctx, name); err != nil {
			m.opts.Log.Warn("forget refused sign-in", "server", name, "error", err)
		}
	}
	if changed {
		m.changed(name)
	}
}

// needsMoreAccess records a 403 insufficient_scope: the next sign-in asks
// for the granted scopes and the challenged ones.
func (m *Manager) needsMoreAccess(name string, ch Challenge) {
	m.mu.Lock()
	s := m.serverLocked(name)
	s.oauth = true
	before := len(s.wanted)
	var dropped int
	s.wanted, dropped = union(s.wanted, ch.Scopes)
	m.noteDroppedLocked(s, "challenge", dropped+ch.DroppedScopes)
	changed := !s.moreAccess || len(s.wanted) != before
	s.moreAccess = true
	m.mu.Unlock()
	if changed {
		m.changed(name)
	}
}
