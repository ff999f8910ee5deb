package oauth

import (
	"context"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

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
