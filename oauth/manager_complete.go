package oauth

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

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
