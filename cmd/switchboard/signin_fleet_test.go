package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// The whole sign-in as the running binary wires it: a supervised remote
// server that answers 401 waits for a person (sign_in, no retry); the
// sign-in completes and the manager's word connects it at once; a call
// refused for lack of scope ends as needs_more_access with the scopes; a
// sign-in with more access lets the retry through; signing out drops the
// connection back to waiting for a person.
func TestSupervisedSignInStepUpAndSignOut(t *testing.T) {
	t.Parallel()
	fx := oauthtest.New(t, oauthtest.Options{ScopesSupported: []string{"read", oauthtest.WriteScope}, ChallengeScopes: []string{"read"}})
	db, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	key := make([]byte, oauth.KeySize)
	_, _ = rand.Read(key)
	sealer, err := oauth.NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	const redirect = "http://127.0.0.1:7391/oauth/callback"
	var fleet *domain.Fleet
	m := oauth.NewManager(oauth.ManagerOptions{Store: db.OAuthStore(), Sealer: sealer, KeySource: domain.KeySourceFile,
		RedirectURI: redirect, OnChange: func(name string) { fleet.AuthChanged(name) }})
	fleet = domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: mcpclient.New(mcpclient.Options{Auth: m}), Auth: m,
		Scope: domain.Scope{User: domain.LocalUser, Workspace: t.TempDir()},
	}})
	sub := fleet.Hub().Subscribe()
	t.Cleanup(func() {
		sub.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = fleet.Close(ctx)
	})
	wait := func(desc string, ok func(domain.Status) bool) domain.Status {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		for {
			batch, err := sub.Next(ctx)
			if err != nil {
				st, _ := fleet.Status("remote")
				t.Fatalf("never %s; last %s/%s %q auth %+v", desc, st.Phase, st.ErrorCategory, st.Error, st.Auth)
			}
			for _, st := range batch {
				if st.ServerName == "remote" && ok(st) {
					return st
				}
			}
		}
	}
	signIn := func() {
		t.Helper()
		oauthtest.SignIn(t, m, "remote")
	}
	authIs := func(st domain.Status, s domain.AuthState) bool { return st.Auth != nil && st.Auth.State == s }

	if err := fleet.Attach(context.Background(), []domain.ServerConfig{{Name: "remote", Transport: domain.TransportHTTP,
		URL: fx.URL(), AutoReconnect: true, ConnectTimeout: 10 * time.Second, CallTimeout: 10 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	st := wait("waits for a sign-in", func(s domain.Status) bool {
		return s.Phase == domain.PhaseExhausted && authIs(s, domain.AuthSignInNeeded)
	})
	if st.ErrorCategory != domain.CategorySignIn || st.Retryable || !st.NextRetryAt.IsZero() || st.Attempt != 0 {
		t.Fatalf("before sign-in: %s retryable=%v next=%v attempt=%d; want sign_in with no retry", st.ErrorCategory, st.Retryable, st.NextRetryAt, st.Attempt)
	}

	signIn()
	st = wait("connects once signed in", func(s domain.Status) bool { return s.Phase == domain.PhaseConnected })
	if !authIs(st, domain.AuthSignedIn) || st.Auth.Issuer != fx.Issuer() || st.Auth.ExpiresAt.IsZero() || st.Error != "" {
		t.Fatalf("connected: auth %+v error %q; want signed_in by %s with an expiry, no error", st.Auth, st.Error, fx.Issuer())
	}

	svc := domain.NewInvocations(domain.InvocationsOptions{Caller: fleet, Catalog: fleet, Store: db.InvocationStore()})
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	scope := domain.Scope{User: domain.LocalUser, Workspace: "/w"}
	call := func() domain.Invocation {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		inv, err := svc.Call(ctx, domain.CallRequest{Scope: scope, Server: "remote", Tool: "write", Arguments: json.RawMessage(`{"text":"x"}`)})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		return inv
	}
	inv := call()
	if inv.Status != domain.InvocationError || inv.ErrorCode != domain.ErrorCodeNeedsMoreAccess || !slices.Contains(inv.NeededScopes, oauthtest.WriteScope) {
		t.Fatalf("write without the scope: %s code %q scopes %v error %q; want needs_more_access asking for write", inv.Status, inv.ErrorCode, inv.NeededScopes, inv.Error)
	}
	stored, err := svc.Get(context.Background(), scope, inv.ID)
	if err != nil || !slices.Equal(stored.NeededScopes, inv.NeededScopes) {
		t.Fatalf("stored scopes %v (%v), want %v", stored.NeededScopes, err, inv.NeededScopes)
	}
	st = wait("shows more access needed", func(s domain.Status) bool { return s.Auth != nil && s.Auth.MoreAccess })
	if st.Phase != domain.PhaseConnected {
		t.Fatalf("more access needed: phase %s, want still connected", st.Phase)
	}

	signIn()
	if inv := call(); inv.Status != domain.InvocationSuccess {
		t.Fatalf("write after signing in with more access: %s %q, want success", inv.Status, inv.Error)
	}

	if err := m.SignOut(context.Background(), "remote"); err != nil {
		t.Fatalf("SignOut: %v", err)
	}
	st = wait("waits for a sign-in again", func(s domain.Status) bool {
		return s.Phase == domain.PhaseExhausted && s.ErrorCategory == domain.CategorySignIn
	})
	if st.Auth != nil && st.Auth.State == domain.AuthSignedIn {
		t.Fatalf("signed out: auth %+v, want not signed in", st.Auth)
	}
}
