package oauth_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

func TestManagerSignsInAndSealsTokensOnDisk(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	if got := r.call(); got != http.StatusUnauthorized {
		t.Fatalf("first call: got %d, want 401", got)
	}
	if got := r.state(); got != domain.AuthSignInNeeded {
		t.Fatalf("state: got %s, want %s", got, domain.AuthSignInNeeded)
	}
	r.signIn()
	if got := r.call(); got != http.StatusOK {
		t.Fatalf("call after sign-in: got %d, want 200", got)
	}
	st := r.m.AuthStatus("remote")
	if st.State != domain.AuthSignedIn || st.Issuer != r.fx.Issuer() || st.ExpiresAt.IsZero() ||
		st.KeySource != domain.KeySourceFile || st.RedirectURI != mgrRedirect {
		t.Fatalf("status: got %+v", st)
	}
	access := r.sent.last()
	if access == "" || !r.fx.ValidAccessToken(access) {
		t.Fatalf("request carried %q, not a live token", access)
	}
	files, _ := filepath.Glob(filepath.Join(r.dir, "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if bytes.Contains(b, []byte(access)) {
			t.Errorf("%s holds the access token in clear", filepath.Base(f))
		}
	}
}

func TestManagerRemembersSignInAcrossRestart(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	r.signIn()
	cfg := domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: r.fx.URL()}

	sealer, _ := oauth.NewSealer(r.key)
	again := oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: sealer, RedirectURI: mgrRedirect})
	again.Transport(cfg, http.DefaultTransport)
	if st := again.AuthStatus("remote"); st == nil || st.State != domain.AuthSignedIn {
		t.Fatalf("after a restart: got %+v, want signed in", st)
	}

	// With another key the stored sign-in opens to nothing: signed out,
	// not an error.
	otherKey, _ := oauth.NewSealer(make([]byte, oauth.KeySize))
	other := oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: otherKey, RedirectURI: mgrRedirect})
	other.Transport(cfg, http.DefaultTransport)
	if st := other.AuthStatus("remote"); st != nil {
		t.Fatalf("with another key: got %+v, want nil", st)
	}
}

func TestManagerTenConcurrent401sRefreshOnce(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{RotateRefresh: true})
	r.call()
	r.signIn()
	r.fx.ExpireAccessTokens()
	before := r.fx.Counts().Refresh
	var wg sync.WaitGroup
	codes := make([]int, 10)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = r.call()
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK {
			t.Errorf("call %d: got %d, want 200", i, c)
		}
	}
	if got := r.fx.Counts().Refresh - before; got != 1 {
		t.Fatalf("refreshes: got %d, want 1", got)
	}
	if got := r.state(); got != domain.AuthSignedIn {
		t.Fatalf("state: got %s, want %s", got, domain.AuthSignedIn)
	}
}

func TestManagerRefreshesAheadOfExpiry(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{TokenLifetime: time.Hour})
	r.call()
	r.signIn()
	r.call()
	first := r.sent.last()
	r.clock.Advance(59*time.Minute + 30*time.Second) // inside max(60 s, 6 min) of expiry
	if got := r.call(); got != http.StatusOK {
		t.Fatalf("call: got %d", got)
	}
	if r.sent.last() == first {
		t.Fatal("the token about to expire was sent again instead of being renewed")
	}
	if got := r.fx.Counts().Refresh; got != 1 {
		t.Fatalf("refreshes: got %d, want 1", got)
	}
}

func TestManagerStateIsSingleUseAndExpires(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	q := r.browse(u)
	if _, err := r.m.Complete(context.Background(), q); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if _, err := r.m.Complete(context.Background(), q); !errors.Is(err, domain.ErrSignInUnknown) {
		t.Fatalf("replay: got %v, want ErrSignInUnknown", err)
	}

	u, err = r.m.Start(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	q = r.browse(u)
	r.clock.Advance(oauth.FlowTTL)
	if _, err := r.m.Complete(context.Background(), q); !errors.Is(err, domain.ErrSignInUnknown) {
		t.Fatalf("expired: got %v, want ErrSignInUnknown", err)
	}
	if _, err := r.m.Complete(context.Background(), url.Values{"state": {"never-issued"}, "code": {"x"}}); !errors.Is(err, domain.ErrSignInUnknown) {
		t.Fatalf("unknown: got %v, want ErrSignInUnknown", err)
	}
}

func TestManagerPassingRefreshFailureKeepsTokensAndRetries(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	r.signIn()
	r.drain()
	r.fx.FailRefresh(http.StatusServiceUnavailable, "")
	r.fx.ExpireAccessTokens()
	if got := r.call(); got != http.StatusUnauthorized {
		t.Fatalf("call: got %d, want 401", got)
	}
	st := r.m.AuthStatus("remote")
	if st.State != domain.AuthRefreshFailing || st.ExpiresAt.IsZero() {
		t.Fatalf("status: got %+v, want refresh_failing with the tokens kept", st)
	}
	r.fx.FailRefresh(0, "")
	r.clock.WaitForTimer(t, 2*time.Second)
	r.clock.Advance(2 * time.Second)
	r.waitState(domain.AuthSignedIn)
	if got := r.call(); got != http.StatusOK {
		t.Fatalf("call after the retried refresh: got %d, want 200", got)
	}
}

func TestManagerInvalidGrantNeedsSignIn(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	r.signIn()
	r.fx.FailRefresh(http.StatusBadRequest, "invalid_grant")
	r.fx.ExpireAccessTokens()
	if got := r.call(); got != http.StatusUnauthorized {
		t.Fatalf("call: got %d, want 401", got)
	}
	if got := r.state(); got != domain.AuthSignInNeeded {
		t.Fatalf("state: got %s, want %s", got, domain.AuthSignInNeeded)
	}
	if got := r.call(); got != http.StatusUnauthorized || r.sent.last() != "" {
		t.Fatalf("after invalid_grant: got %d carrying %q, want 401 carrying nothing", got, r.sent.last())
	}
}

func TestManagerStepUpAsksForTheUnion(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{ScopesSupported: []string{"read", oauthtest.WriteScope}, ChallengeScopes: []string{"read"}})
	r.call()
	r.signIn()
	req, _ := http.NewRequest(http.MethodPost, r.fx.URL(),
		strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write","arguments":{}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := r.rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("write: got %d, want 403", resp.StatusCode)
	}
	st := r.m.AuthStatus("remote")
	if !st.MoreAccess || !strings.Contains(strings.Join(st.Scopes, " "), oauthtest.WriteScope) {
		t.Fatalf("status: got %+v, want more access with %s", st, oauthtest.WriteScope)
	}
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	scope, _ := url.Parse(u)
	if got := scope.Query().Get("scope"); !strings.Contains(got, "read") || !strings.Contains(got, oauthtest.WriteScope) {
		t.Fatalf("step-up scope: got %q, want read and %s", got, oauthtest.WriteScope)
	}
}

func TestManagerIgnoresServersWithoutOAuth(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	if st := r.m.AuthStatus("remote"); st != nil {
		t.Fatalf("before any refusal: got %+v, want nil", st)
	}
	if _, err := r.m.Start(context.Background(), "stdio-one"); !errors.Is(err, domain.ErrNoSignIn) {
		t.Fatalf("Start of an unknown server: got %v, want ErrNoSignIn", err)
	}
}

func TestManagerSignInNotFinishedInTimeIsNeededAgain(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	if _, err := r.m.Start(context.Background(), "remote"); err != nil {
		t.Fatal(err)
	}
	r.drain()
	r.clock.WaitForTimer(t, oauth.FlowTTL)
	r.clock.Advance(oauth.FlowTTL)
	r.waitState(domain.AuthSignInNeeded)
}

func TestManagerKeepsARotatedRefreshTokenAcrossRestart(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{RotateRefresh: true})
	r.call()
	r.signIn()
	r.fx.ExpireAccessTokens()
	if got := r.call(); got != http.StatusOK { // rotates the refresh token
		t.Fatalf("call: got %d", got)
	}
	sealer, _ := oauth.NewSealer(r.key)
	again := oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: sealer, RedirectURI: mgrRedirect})
	r.rt = again.Transport(domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: r.fx.URL()}, r.sent)
	r.fx.ExpireAccessTokens()
	if got := r.call(); got != http.StatusOK {
		t.Fatalf("after a restart: got %d, want 200 with the rotated refresh token", got)
	}
}

// A token's expiry is reckoned on the Manager's clock, which decides
// renewals, not on the wall clock the token request happened to read.
func TestManagerReckonsExpiryOnItsClock(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{TokenLifetime: time.Hour})
	r.clock.Advance(365 * 24 * time.Hour)
	r.call()
	r.signIn()
	st := r.m.AuthStatus("remote")
	want := r.clock.Now().Add(time.Hour)
	if st == nil || st.ExpiresAt.Sub(want).Abs() > time.Minute {
		t.Fatalf("expires at %v, want about %v", st, want)
	}
}
