package domain_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// authRig is a rig whose supervisors read sign-ins from a fake source.
func authRig(t *testing.T) (*rig, *domaintest.AuthSource) {
	t.Helper()
	auth := domaintest.NewAuthSource()
	r := newRig(t, func(o *domain.FleetOptions) {
		o.Auth = auth
		o.AutoDisable = domain.AutoDisable{Threshold: 2, Window: time.Hour}
	})
	return r, auth
}

func remote(name string) domain.ServerConfig {
	return domain.ServerConfig{Name: name, Transport: domain.TransportHTTP, URL: "https://mcp.example/mcp",
		AutoReconnect: true, KeepAlive: 30 * time.Second, ConnectTimeout: 30 * time.Second}
}

func signInRefusal() error {
	return &domain.ConnError{Category: domain.CategorySignIn, Err: errors.New("401 Unauthorized")}
}

func authState(s domain.Status) domain.AuthState {
	if s.Auth == nil {
		return ""
	}
	return s.Auth.State
}

// A 401 waits for a person: exhausted, not retryable, no retry timer, and
// however often it happens it never auto-disables the server.
func TestSignInRefusalWaitsWithoutBackoffOrAutoDisable(t *testing.T) {
	r, auth := authRig(t)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignInNeeded, Scopes: []string{"repo"}, Issuer: "https://as.example"})
	r.attach(remote("gh"))
	for i := range 3 {
		r.conn.Next(t).Fail(signInRefusal())
		st := r.waitPhase("gh", domain.PhaseExhausted)
		if st.Retryable || !st.NextRetryAt.IsZero() || st.Delay != 0 || st.ErrorCategory != domain.CategorySignIn {
			t.Fatalf("refusal %d: retryable=%v next=%v delay=%v category=%s; want no retry, sign_in", i+1, st.Retryable, st.NextRetryAt, st.Delay, st.ErrorCategory)
		}
		if st.DisabledReason != domain.DisabledNone || st.State != domain.StateError {
			t.Fatalf("refusal %d: %s disabled=%q; want error, not disabled (threshold is 2)", i+1, st.State, st.DisabledReason)
		}
		if authState(st) != domain.AuthSignInNeeded || !slices.Equal(st.Auth.Scopes, []string{"repo"}) || st.Auth.Issuer != "https://as.example" {
			t.Fatalf("refusal %d: auth = %+v, want sign_in_needed with the source's scopes and issuer", i+1, st.Auth)
		}
		if timers := r.clock.Timers(); len(timers) != 0 {
			t.Fatalf("refusal %d: timers %v armed, want none", i+1, timers)
		}
		if _, err := r.fleet.Restart(t.Context(), "gh"); err != nil {
			t.Fatalf("Restart: %v", err)
		}
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	r.waitPhase("gh", domain.PhaseConnected)
}

// A completed sign-in connects a server that waited for it at once, in a
// snapshot that carries the new sign-in.
func TestSignedInConnectsAServerThatWaited(t *testing.T) {
	r, auth := authRig(t)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignInNeeded})
	r.attach(remote("gh"))
	r.conn.Next(t).Fail(signInRefusal())
	r.waitPhase("gh", domain.PhaseExhausted)

	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSigningIn})
	r.fleet.AuthChanged("gh")
	st := r.waitFor("gh", "signing_in", func(s domain.Status) bool { return authState(s) == domain.AuthSigningIn })
	if st.Phase != domain.PhaseExhausted {
		t.Fatalf("signing in: phase %s, want exhausted until the sign-in completes", st.Phase)
	}

	expires := epoch.Add(time.Hour)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignedIn, ExpiresAt: expires})
	r.fleet.AuthChanged("gh")
	st = r.waitPhase("gh", domain.PhaseConnecting)
	if authState(st) != domain.AuthSignedIn || !st.Auth.ExpiresAt.Equal(expires) {
		t.Fatalf("connecting snapshot auth = %+v, want signed_in expiring %v", st.Auth, expires)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	st = r.waitPhase("gh", domain.PhaseConnected)
	if st.Error != "" || st.ErrorCategory != "" {
		t.Errorf("connected snapshot keeps error %q (%s)", st.Error, st.ErrorCategory)
	}
}

// A sign-in that completes while an attempt runs without it: the attempt's
// 401 predates the tokens, so one more attempt goes at once.
func TestSignInDuringAttemptRetriesOnce(t *testing.T) {
	r, auth := authRig(t)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignInNeeded})
	r.attach(remote("gh"))
	a := r.conn.Next(t)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignedIn})
	r.fleet.AuthChanged("gh")
	r.waitFor("gh", "signed_in while connecting", func(s domain.Status) bool {
		return s.Phase == domain.PhaseConnecting && authState(s) == domain.AuthSignedIn
	})
	a.Fail(signInRefusal())
	// The refusal is not shown: the next attempt starts in its place.
	r.conn.Next(t).Fail(signInRefusal())
	st := r.waitPhase("gh", domain.PhaseExhausted)
	if st.ErrorCategory != domain.CategorySignIn {
		t.Fatalf("second refusal: category %s, want sign_in", st.ErrorCategory)
	}
	// The second refusal came after the sign-in: it stands.
	if timers := r.clock.Timers(); len(timers) != 0 {
		t.Errorf("timers %v after the second refusal, want none", timers)
	}
}

// Signing out a connected server reconnects it so that it says what it
// needs; signing in again with more access while connected does not drop
// the working session, nor does a call's 403 (MoreAccess).
func TestAuthChangesOfAConnectedServer(t *testing.T) {
	r, auth := authRig(t)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignedIn, Scopes: []string{"read"}})
	r.attach(remote("gh"))
	sess := domaintest.NewSession(caps("x"))
	r.conn.Next(t).Succeed(sess)
	st := r.waitPhase("gh", domain.PhaseConnected)
	if authState(st) != domain.AuthSignedIn {
		t.Fatalf("connected auth = %+v, want signed_in", st.Auth)
	}

	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignInNeeded, MoreAccess: true, Scopes: []string{"read", "write"}})
	r.fleet.AuthChanged("gh")
	st = r.waitFor("gh", "more access", func(s domain.Status) bool { return s.Auth != nil && s.Auth.MoreAccess })
	if st.Phase != domain.PhaseConnected {
		t.Fatalf("more access: phase %s, want still connected", st.Phase)
	}
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSigningIn, Scopes: []string{"read", "write"}})
	r.fleet.AuthChanged("gh")
	st = r.waitFor("gh", "signing_in", func(s domain.Status) bool { return authState(s) == domain.AuthSigningIn })
	if st.Phase != domain.PhaseConnected {
		t.Fatalf("signing in with more access: phase %s, want still connected", st.Phase)
	}

	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignInNeeded})
	r.fleet.AuthChanged("gh")
	st = r.waitPhase("gh", domain.PhaseConnecting)
	if authState(st) != domain.AuthSignInNeeded {
		t.Errorf("reconnecting auth = %+v, want sign_in_needed", st.Auth)
	}
	sess.WaitClosed(t)
	r.conn.Next(t).Fail(signInRefusal())
	r.waitPhase("gh", domain.PhaseExhausted)
}

// A source that forgets a connected server's sign-in (nil) signed it out.
func TestForgottenSignInReconnects(t *testing.T) {
	r, auth := authRig(t)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignedIn})
	r.attach(remote("gh"))
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	r.waitPhase("gh", domain.PhaseConnected)
	auth.Set("gh", nil)
	r.fleet.AuthChanged("gh")
	st := r.waitPhase("gh", domain.PhaseConnecting)
	if st.Auth != nil {
		t.Errorf("auth = %+v, want nil", st.Auth)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	r.waitPhase("gh", domain.PhaseConnected)
}

// A disabled server only shows the new sign-in; it stays off.
func TestAuthChangeOfADisabledServerOnlyPublishes(t *testing.T) {
	r, auth := authRig(t)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignInNeeded})
	r.attach(remote("gh"))
	r.conn.Next(t).Fail(signInRefusal())
	r.waitPhase("gh", domain.PhaseExhausted)
	if _, err := r.fleet.Disable(t.Context(), "gh"); err != nil {
		t.Fatalf("Disable: %v", err)
	}
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignedIn})
	r.fleet.AuthChanged("gh")
	st := r.waitFor("gh", "signed_in", func(s domain.Status) bool { return authState(s) == domain.AuthSignedIn })
	if st.Phase != domain.PhaseStopped || st.State != domain.StateDisabled {
		t.Errorf("phase %s state %s, want stopped and disabled", st.Phase, st.State)
	}
}

// Without an auth source, and for servers it does not know, Auth is nil;
// AuthChanged for an unknown server is harmless.
func TestNoAuthSourceMeansNoAuth(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	r.fleet.AuthChanged("nobody")
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	if st := r.waitPhase("a", domain.PhaseConnected); st.Auth != nil {
		t.Errorf("auth = %+v, want nil", st.Auth)
	}
}

// The snapshot holds its own copy: what the source does later cannot
// change a published status.
func TestPublishedAuthIsACopy(t *testing.T) {
	src := &sharedAuth{a: &domain.AuthStatus{State: domain.AuthSignedIn, Scopes: []string{"read"}}}
	r := newRig(t, func(o *domain.FleetOptions) { o.Auth = src })
	r.attach(remote("gh"))
	st := r.waitPhase("gh", domain.PhaseConnecting)
	src.a.Scopes[0] = "changed"
	src.a.State = domain.AuthFailed
	if st.Auth.State != domain.AuthSignedIn || st.Auth.Scopes[0] != "read" {
		t.Errorf("published auth changed with the source's value: %+v", st.Auth)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
}

// sharedAuth hands out its own value, as a careless adapter might.
type sharedAuth struct{ a *domain.AuthStatus }

func (s *sharedAuth) AuthStatus(string) *domain.AuthStatus { return s.a }

// A source that says signed in while the server refuses its tokens costs
// one attempt per refusal: renewals that keep the state do not connect.
func TestRenewalsOfARefusedSignInDoNotLoop(t *testing.T) {
	r, auth := authRig(t)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignedIn, ExpiresAt: epoch.Add(time.Minute)})
	r.attach(remote("gh"))
	r.conn.Next(t).Fail(signInRefusal())
	r.waitPhase("gh", domain.PhaseExhausted)

	// The first word since the refusal is news: one attempt with it.
	r.fleet.AuthChanged("gh")
	r.waitPhase("gh", domain.PhaseConnecting)
	r.conn.Next(t).Fail(signInRefusal())
	r.waitPhase("gh", domain.PhaseExhausted)
	r.fleet.AuthChanged("gh")
	r.waitPhase("gh", domain.PhaseConnecting)
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	r.waitPhase("gh", domain.PhaseConnected)

	// Renewed while connected: nothing to do but show it, again and again.
	for i := range 3 {
		renewed := epoch.Add(time.Duration(i+2) * time.Hour)
		auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignedIn, ExpiresAt: renewed})
		r.fleet.AuthChanged("gh")
		st := r.waitFor("gh", "renewed", func(s domain.Status) bool { return s.Auth != nil && s.Auth.ExpiresAt.Equal(renewed) })
		if st.Phase != domain.PhaseConnected {
			t.Fatalf("renewal %d: phase %s, want still connected", i+1, st.Phase)
		}
	}
}

// A connected server whose session the server ends with a 401 waits for a
// person; a sign-in then connects it even when the source's word of it
// comes as one change (signing_in and signed_in merged), and even though
// the loop last saw signed_in before the refusal.
func TestSignInAfterARefusalOfAConnectedServer(t *testing.T) {
	r, auth := authRig(t)
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignedIn})
	r.attach(remote("gh"))
	sess := domaintest.NewSession(caps("x"))
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("gh", domain.PhaseConnected)
	r.fleet.AuthChanged("gh")
	r.waitFor("gh", "republished", func(s domain.Status) bool { return s.Phase == domain.PhaseConnected })

	sess.Lose(signInRefusal())
	st := r.waitPhase("gh", domain.PhaseExhausted)
	if st.ErrorCategory != domain.CategorySignIn || st.Retryable || st.ConnectedAt != (time.Time{}) {
		t.Fatalf("after the 401: category %s retryable %v connectedAt %v; want sign_in, no retry, not connected", st.ErrorCategory, st.Retryable, st.ConnectedAt)
	}
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSigningIn})
	auth.Set("gh", &domain.AuthStatus{State: domain.AuthSignedIn, ExpiresAt: epoch.Add(time.Hour)})
	r.fleet.AuthChanged("gh")
	r.waitPhase("gh", domain.PhaseConnecting)
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	r.waitPhase("gh", domain.PhaseConnected)
}
