package oauth

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// refreshSkew is the least time before expiry at which a token is renewed.
const refreshSkew = 60 * time.Second

// Backoff of a refresh that failed for a passing reason.
const (
	refreshRetryFirst = 2 * time.Second
	refreshRetryMax   = 5 * time.Minute
)

var (
	errNoRefresh = errors.New("no refresh token")
	// errGrantReplaced ends a refresh whose grant was signed out of, or
	// replaced by a new sign-in, while it was in flight.
	errGrantReplaced = errors.New("signed in again or out while renewing")
)

// refreshCall is one refresh in flight; everyone who needs a new token
// meanwhile waits for it instead of sending another.
type refreshCall struct {
	done   chan struct{} // closed when access and err are set
	access string
	err    error
}

// refresh renews name's token unless the token is no longer used (someone
// renewed it already: the current one is returned). At most one refresh
// per server is in flight. It runs on its own context, so a caller giving
// up cannot strand a rotated refresh token half-saved.
func (m *Manager) refresh(ctx context.Context, name, used string) (string, error) {
	m.mu.Lock()
	s := m.servers[name]
	if s == nil || s.tok == nil {
		m.mu.Unlock()
		return "", errNoRefresh
	}
	if used != "" && s.tok.Access != used {
		fresh := s.tok.Access
		m.mu.Unlock()
		return fresh, nil
	}
	call := s.refreshing
	if call == nil {
		if s.tok.Refresh == "" || s.md == nil || s.client == nil {
			m.mu.Unlock()
			return "", errNoRefresh
		}
		call = &refreshCall{done: make(chan struct{})}
		s.refreshing = call
		go m.runRefresh(s, call, *s.md, *s.client, *s.tok, s.cfg.URL, s.gen)
	}
	m.mu.Unlock()
	select {
	case <-call.done:
		return call.access, call.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// runRefresh sends the refresh request and records its outcome: a new
// token (saved before it is used), a refusal (invalid_grant: sign in
// again), or a passing failure (tokens kept, retried with backoff). gen is
// the grant generation the refresh started in; when it is no longer
// current the outcome is discarded: nothing saved, deleted or changed.
func (m *Manager) runRefresh(s *server, call *refreshCall, md Metadata, c Client, old Token, url string, gen uint64) {
	ctx, cancel := background()
	defer cancel()
	hc := m.httpFor(url)
	tok, err := Refresh(ctx, hc, md, c, old.Refresh)
	now := m.opts.Clock.Now()
	if err == nil {
		if tok.Refresh == "" {
			tok.Refresh = old.Refresh
		}
		if len(tok.Scopes) == 0 {
			tok.Scopes = old.Scopes
		}
		tok.expiresFrom(now)
	}
	var te *TokenError
	permanent := err != nil && errors.As(err, &te) && te.Permanent()

	// Holding the grant lock, the generation cannot change between the
	// check and the store writes below, nor before the outcome is applied.
	s.grantMu.Lock()
	if m.staleGrant(s, call, gen) {
		s.grantMu.Unlock()
		m.discardRefresh(ctx, hc, s, call, md, c, tok, err)
		return
	}
	if err == nil {
		rec := tokenRecord{URL: url, Metadata: md, Client: c, Token: tok, Obtained: now}
		if serr := m.saveTokens(ctx, s.name, rec); serr != nil {
			// Still use it: the old refresh token may be spent already.
			m.opts.Log.Warn("save renewed sign-in", "server", s.name, "error", serr)
		}
	}
	if permanent {
		if derr := m.opts.Store.DeleteTokens(ctx, s.name); derr != nil {
			m.opts.Log.Warn("forget refused sign-in", "server", s.name, "error", derr)
		}
		if te.Code == "invalid_client" && c.Kind == ClientRegistered {
			_ = m.opts.Store.DeleteRegistration(ctx, md.Issuer, m.redirectURI())
		}
	}

	m.mu.Lock()
	s.refreshing = nil
	changed := false
	switch {
	case err == nil:
		m.stopRetryLocked(s)
		s.tok, s.got, s.failures, s.retryAt = &tok, now, 0, time.Time{}
		changed = s.setState(domain.AuthSignedIn, "")
		call.access = tok.Access
	case permanent:
		m.stopRetryLocked(s)
		s.tok, s.failures, s.retryAt = nil, 0, time.Time{}
		changed = s.setState(domain.AuthSignInNeeded, detailOf(err))
		if te.Code == "invalid_client" && s.client != nil && s.client.Kind == ClientRegistered {
			s.client = nil
		}
		call.err = err
	default:
		s.failures++
		wait := min(refreshRetryFirst<<min(s.failures-1, 10), refreshRetryMax)
		s.retryAt = now.Add(wait)
		changed = s.setState(domain.AuthRefreshFailing, detailOf(err))
		m.scheduleRetryLocked(s, wait)
		call.err = err
	}
	m.mu.Unlock()
	s.grantMu.Unlock()
	close(call.done)

	if err == nil {
		m.opts.Log.Info("sign-in renewed", "server", s.name)
	} else {
		m.opts.Log.Warn("sign-in renewal failed", "server", s.name, "error", detailOf(err))
	}
	if changed {
		m.changed(s.name)
	}
}

// staleGrant reports whether a refresh that started in generation gen
// belongs to a grant that is gone: signed out of, replaced by a new
// sign-in, or forgotten because the server's address changed (its entry
// may hold the new address's sign-in by now). A stale call stops being
// the one in flight.
func (m *Manager) staleGrant(s *server, call *refreshCall, gen uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	stale := s.gen != gen || m.servers[s.name] != s
	if stale && s.refreshing == call {
		s.refreshing = nil
	}
	return stale
}

// discardRefresh ends a stale refresh. Its callers get the current grant's
// token when there is one (a new sign-in), else errGrantReplaced; tokens
// it renewed are revoked, since nobody will use them.
func (m *Manager) discardRefresh(ctx context.Context, hc *http.Client, s *server, call *refreshCall, md Metadata, c Client, tok Token, err error) {
	m.mu.Lock()
	if s.tok != nil && m.servers[s.name] == s {
		call.access = s.tok.Access
	} else {
		call.err = errGrantReplaced
	}
	m.mu.Unlock()
	close(call.done)
	m.opts.Log.Info("renewal of a replaced sign-in discarded", "server", s.name)
	if err == nil {
		_ = Revoke(ctx, hc, md, c, tok)
	}
}

// scheduleRetryLocked renews s's token again after wait, on the manager's
// clock; m.mu is held.
func (m *Manager) scheduleRetryLocked(s *server, wait time.Duration) {
	m.stopRetryLocked(s)
	t := m.opts.Clock.NewTimer(wait)
	stop := make(chan struct{})
	s.retry, s.retryStop = t, stop
	go func() {
		select {
		case <-t.C():
		case <-stop:
			return
		}
		m.mu.Lock()
		current := s.retry == t
		var used string
		if current {
			s.retry, s.retryStop = nil, nil
			if s.tok != nil {
				used = s.tok.Access
			}
		}
		m.mu.Unlock()
		if current && used != "" {
			ctx, cancel := background()
			defer cancel()
			_, _ = m.refresh(ctx, s.name, used)
		}
	}()
}

// stopRetryLocked cancels s's scheduled retry; m.mu is held.
func (m *Manager) stopRetryLocked(s *server) {
	if s.retry != nil {
		s.retry.Stop()
		close(s.retryStop)
		s.retry, s.retryStop = nil, nil
	}
}
