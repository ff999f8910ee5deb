package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// tokenRecord is what is sealed for one server: the tokens, and all a
// refresh needs after a restart without discovering again.
type tokenRecord struct {
	URL      string    `json:"url"`
	Metadata Metadata  `json:"metadata"`
	Client   Client    `json:"client"`
	Token    Token     `json:"token"`
	Obtained time.Time `json:"obtained"`
}

// registrationRecord is a client registration kept per authorization
// server and redirect URI.
type registrationRecord struct {
	Client Client `json:"client"`
}

func tokensAAD(server string) []byte { return []byte("oauth-tokens\x00" + server) }

func registrationAAD(issuer, redirectURI string) []byte {
	return []byte("oauth-registration\x00" + issuer + "\x00" + redirectURI)
}

// saveTokens seals and stores rec for server. It runs before the token is
// used, so a rotated refresh token is never lost to a crash.
func (m *Manager) saveTokens(ctx context.Context, server string, rec tokenRecord) error {
	plain, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("save sign-in of %s: %w", server, err)
	}
	sealed, err := m.opts.Sealer.Seal(plain, tokensAAD(server))
	if err != nil {
		return fmt.Errorf("save sign-in of %s: %w", server, err)
	}
	if err := m.opts.Store.SaveTokens(ctx, server, sealed); err != nil {
		return fmt.Errorf("save sign-in of %s: %w", server, err)
	}
	return nil
}

// loadTokens returns server's stored record; found is false when there is
// none, or when it cannot be opened with the current key (then the
// server counts as signed out).
func (m *Manager) loadTokens(ctx context.Context, server string) (rec tokenRecord, found bool, err error) {
	sealed, err := m.opts.Store.LoadTokens(ctx, server)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, false, nil
	}
	if err != nil {
		return rec, false, fmt.Errorf("load sign-in of %s: %w", server, err)
	}
	plain, err := m.opts.Sealer.Open(sealed, tokensAAD(server))
	if err != nil {
		m.opts.Log.Warn("stored sign-in unreadable; signing in again is needed", "server", server, "error", err)
		return rec, false, nil
	}
	if err := json.Unmarshal(plain, &rec); err != nil {
		return rec, false, fmt.Errorf("load sign-in of %s: %w", server, err)
	}
	return rec, true, nil
}

func (m *Manager) saveRegistration(ctx context.Context, issuer string, c Client) error {
	redirect := m.redirectURI()
	plain, err := json.Marshal(registrationRecord{Client: c})
	if err != nil {
		return fmt.Errorf("save registration: %w", err)
	}
	sealed, err := m.opts.Sealer.Seal(plain, registrationAAD(issuer, redirect))
	if err != nil {
		return fmt.Errorf("save registration: %w", err)
	}
	if err := m.opts.Store.SaveRegistration(ctx, issuer, redirect, sealed); err != nil {
		return fmt.Errorf("save registration: %w", err)
	}
	return nil
}

// loadRegistration returns the client registered with issuer for this
// redirect URI, if any.
func (m *Manager) loadRegistration(ctx context.Context, issuer string) (Client, bool, error) {
	redirect := m.redirectURI()
	sealed, err := m.opts.Store.LoadRegistration(ctx, issuer, redirect)
	if errors.Is(err, fs.ErrNotExist) {
		return Client{}, false, nil
	}
	if err != nil {
		return Client{}, false, fmt.Errorf("load registration: %w", err)
	}
	plain, err := m.opts.Sealer.Open(sealed, registrationAAD(issuer, redirect))
	if err != nil {
		return Client{}, false, nil
	}
	var rec registrationRecord
	if err := json.Unmarshal(plain, &rec); err != nil {
		return Client{}, false, fmt.Errorf("load registration: %w", err)
	}
	return rec.Client, true, nil
}

// ensureLoaded reads s's stored tokens once; a record made for another
// URL is ignored, since its tokens were issued for another resource.
func (m *Manager) ensureLoaded(name string) {
	m.mu.Lock()
	s := m.serverLocked(name)
	if s.loaded {
		m.mu.Unlock()
		return
	}
	url := s.cfg.URL
	m.mu.Unlock()

	ctx, cancel := background()
	defer cancel()
	rec, found, err := m.loadTokens(ctx, name)
	if err != nil {
		m.opts.Log.Warn("load sign-in", "server", name, "error", err)
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	if s.loaded {
		return
	}
	s.loaded = true
	if !found || rec.URL != url || s.tok != nil {
		return
	}
	md, c, tok := rec.Metadata, rec.Client, rec.Token
	s.md, s.client, s.tok, s.got = &md, &c, &tok, rec.Obtained
	s.oauth = true
	s.setState(stateWithToken(s), "")
}

// stateWithToken is the state of a server holding tokens.
func stateWithToken(s *server) domain.AuthState {
	if s.failures > 0 {
		return domain.AuthRefreshFailing
	}
	return domain.AuthSignedIn
}
