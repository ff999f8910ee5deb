package domain

import (
	"slices"
	"time"
)

// authStatus returns the server's sign-in as the auth source tells it, as
// a copy the snapshot may keep: the source may change its own value later.
// Detail is redacted once more here, since it can quote an authorization
// server's words.
func (s *supervisor) authStatus() *AuthStatus {
	if s.opts.Auth == nil {
		return nil
	}
	a := s.opts.Auth.AuthStatus(s.st.ServerName)
	if a == nil {
		return nil
	}
	c := *a
	c.Scopes = slices.Clone(a.Scopes)
	c.Detail = s.redact.Redact(a.Detail)
	return &c
}

// failSignIn records a connection refused until a person signs in. No
// retry could change that, so there is no backoff, and waiting for a
// person never counts toward auto-disable. When a person finished signing
// in while the attempt ran, the refusal may predate the new tokens: one
// more attempt goes at once.
func (s *supervisor) failSignIn(err error) {
	if s.authMoved && s.authStatus().signedIn() {
		s.opts.Log.Info("server refused a sign-in that has since changed, connecting again", "server", s.st.ServerName)
		s.connect(EvConnect)
		return
	}
	s.stopAll()
	// Whatever sign-in the loop saw last, the server has just refused it:
	// the next word that the server is signed in is news again.
	s.authSeen = ""
	s.st.clearError()
	s.st.Error = s.redact.Redact(err.Error())
	s.st.ErrorCategory = CategorySignIn
	s.st.LastErrorAt = s.opts.Clock.Now()
	s.st.Attempt, s.st.MaxAttempts = s.consecutive, 0 // a sign-in never counts toward auto-disable
	s.st.ConnectedAt = time.Time{}
	s.st.HasLatency = false
	s.st.Latency = 0
	s.transition(EvGiveUp)
	s.publish()
	state := "unknown"
	if a := s.st.Auth; a != nil {
		state = string(a.State)
	}
	s.opts.Log.Info("server needs a person to sign in", "server", s.st.ServerName, "auth", state, "error", s.st.Error)
}

// nudgeAuth tells the loop the server's sign-in changed; nudges that come
// while the loop is busy merge into one, since the loop reads the newest
// state anyway.
func (s *supervisor) nudgeAuth() {
	select {
	case s.authNudge <- struct{}{}:
	default:
	}
}

// onAuthChanged publishes the new sign-in and acts on it: a server that
// waited for a person to sign in connects now that one has, and a
// connected server whose sign-in is gone reconnects, so that its status
// says what it needs rather than keeping a session that will be refused.
//
// Only a sign-in that arrives connects: the state becomes signed_in, or
// is the first word since the server refused a sign-in. A refresh keeps
// the state, so a source that stays signed in while the server refuses
// it costs at most one attempt per refusal, never a loop on every renewal.
func (s *supervisor) onAuthChanged() {
	prev, auth := s.st.Auth, s.authStatus()
	var now AuthState
	if auth != nil {
		now = auth.State
	}
	arrived := now == AuthSignedIn && s.authSeen != AuthSignedIn
	s.authSeen = now
	if s.st.DisabledReason == DisabledNone {
		switch s.st.Phase {
		case PhaseExhausted:
			if s.st.ErrorCategory == CategorySignIn && arrived {
				s.opts.Log.Info("server signed in, connecting", "server", s.st.ServerName)
				s.connect(EvConnect)
				return
			}
		case PhaseConnecting:
			s.authMoved = s.authMoved || arrived
		case PhaseConnected:
			if signedOut(prev, auth) {
				s.opts.Log.Info("server signed out, reconnecting", "server", s.st.ServerName)
				s.connect(EvConnect)
				return
			}
		}
	}
	s.publish()
}

// signedIn reports whether a holds tokens requests can carry.
func (a *AuthStatus) signedIn() bool {
	return a != nil && a.State == AuthSignedIn
}

// signedOut reports whether a connected server's sign-in went away: the
// source now says a person must sign in (signed out, or renewing was
// refused), or it forgot a sign-in it had. A grant found too narrow for
// one call (MoreAccess) still serves the rest and is not a sign-out.
func signedOut(prev, now *AuthStatus) bool {
	if now == nil {
		return prev.signedIn()
	}
	return now.State == AuthSignInNeeded && !now.MoreAccess
}
