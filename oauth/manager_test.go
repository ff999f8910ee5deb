package oauth_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

const mgrRedirect = "http://127.0.0.1:7391/oauth/callback"

// mgrRig is a manager over a real SQLite store, in front of a fixture.
type mgrRig struct {
	t       *testing.T
	fx      *oauthtest.Server
	m       *oauth.Manager
	clock   *domaintest.Clock
	dir     string
	rt      http.RoundTripper
	sent    *sentTokens
	changes chan string
	db      *sqlite.DB
	key     []byte
}

// sentTokens records the bearer tokens requests carried, as the resource
// server saw them.
type sentTokens struct {
	mu   sync.Mutex
	seen []string
}

func (s *sentTokens) RoundTrip(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.seen = append(s.seen, strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer "))
	s.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (s *sentTokens) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) == 0 {
		return ""
	}
	return s.seen[len(s.seen)-1]
}

func newMgrRig(t *testing.T, opts oauthtest.Options) *mgrRig {
	t.Helper()
	r := &mgrRig{t: t, fx: oauthtest.New(t, opts), clock: domaintest.NewClock(time.Now()),
		dir: t.TempDir(), sent: &sentTokens{}, changes: make(chan string, 64)}
	db, err := sqlite.Open(context.Background(), r.dir)
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
	r.db, r.key = db, key
	r.m = oauth.NewManager(oauth.ManagerOptions{Store: db.OAuthStore(), Sealer: sealer, KeySource: domain.KeySourceFile,
		RedirectURI: mgrRedirect, Clock: r.clock, OnChange: func(s string) { r.changes <- s }})
	r.rt = r.m.Transport(domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: r.fx.URL()}, r.sent)
	return r
}

// call sends initialize through the manager's transport.
func (r *mgrRig) call() int {
	r.t.Helper()
	req, err := http.NewRequest(http.MethodPost, r.fx.URL(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := r.rt.RoundTrip(req)
	if err != nil {
		r.t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

func (r *mgrRig) state() domain.AuthState {
	r.t.Helper()
	st := r.m.AuthStatus("remote")
	if st == nil {
		r.t.Fatal("no auth status")
	}
	return st.State
}

// browse plays the browser: it opens the authorization URL and returns
// the query the authorization server sent it back with.
func (r *mgrRig) browse(authURL string) url.Values {
	r.t.Helper()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(authURL)
	if err != nil {
		r.t.Fatal(err)
	}
	_ = resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), mgrRedirect) {
		r.t.Fatalf("authorization answered %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return loc.Query()
}

func (r *mgrRig) signIn() {
	r.t.Helper()
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		r.t.Fatalf("Start: %v", err)
	}
	if got := r.state(); got != domain.AuthSigningIn {
		r.t.Fatalf("state after Start: got %s, want %s", got, domain.AuthSigningIn)
	}
	if name, err := r.m.Complete(context.Background(), r.browse(u)); err != nil || name != "remote" {
		r.t.Fatalf("Complete: got %q, %v", name, err)
	}
}

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

func TestManagerAuthorizationErrorIsShownForKnownState(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	r.fx.DenyAuthorize("access_denied", "the person said no")
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	name, err := r.m.Complete(context.Background(), r.browse(u))
	if err == nil || name != "remote" || !strings.Contains(err.Error(), "the person said no") {
		t.Fatalf("Complete: got %q, %v", name, err)
	}
	if st := r.m.AuthStatus("remote"); st.State != domain.AuthSignInNeeded || !strings.Contains(st.Detail, "said no") {
		t.Fatalf("status: got %+v", st)
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

func TestManagerNeedsClientIDWithoutRegistration(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{NoDCR: true, PreRegistered: map[string]string{"typed-in": ""}})
	r.call()
	if _, err := r.m.Start(context.Background(), "remote"); !errors.Is(err, domain.ErrNeedsClientID) {
		t.Fatalf("Start: got %v, want ErrNeedsClientID", err)
	}
	if got := r.state(); got != domain.AuthNeedsClientID {
		t.Fatalf("state: got %s, want %s", got, domain.AuthNeedsClientID)
	}
	if err := r.m.SetClient(context.Background(), "remote", "typed-in", ""); err != nil {
		t.Fatal(err)
	}
	r.signIn()
	if got := r.call(); got != http.StatusOK {
		t.Fatalf("call: got %d, want 200", got)
	}
}

func TestManagerReusesStoredRegistration(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	r.signIn()
	if err := r.m.SignOut(context.Background(), "remote"); err != nil {
		t.Fatal(err)
	}
	r.signIn()
	if got := r.fx.Counts().Register; got != 1 {
		t.Fatalf("registrations: got %d, want 1", got)
	}
}

func TestManagerSignOutRevokesAndForgets(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{Revocation: true})
	r.call()
	r.signIn()
	r.call()
	access := r.sent.last()
	if err := r.m.SignOut(context.Background(), "remote"); err != nil {
		t.Fatal(err)
	}
	if got := r.fx.Counts().Revoke; got == 0 {
		t.Fatal("sign-out revoked nothing")
	}
	if r.fx.ValidAccessToken(access) {
		t.Fatal("the access token still works after sign-out")
	}
	if got := r.state(); got != domain.AuthSignInNeeded {
		t.Fatalf("state: got %s, want %s", got, domain.AuthSignInNeeded)
	}
	if got := r.call(); got != http.StatusUnauthorized || r.sent.last() != "" {
		t.Fatalf("after sign-out: got %d carrying %q", got, r.sent.last())
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

// drain forgets the changes reported so far.
func (r *mgrRig) drain() {
	for {
		select {
		case <-r.changes:
		default:
			return
		}
	}
}

// waitState waits for a change report after which the state is want.
func (r *mgrRig) waitState(want domain.AuthState) {
	r.t.Helper()
	deadline := time.After(10 * time.Second)
	for r.state() != want {
		select {
		case <-r.changes:
		case <-deadline:
			r.t.Fatalf("state: got %s, want %s", r.state(), want)
		}
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

func TestManagerClientIdentityOrder(t *testing.T) {
	t.Parallel()
	const cimd = "https://switchboard.example/client.json"
	for name, tc := range map[string]struct {
		fx       oauthtest.Options
		settings *domain.OAuthSettings
		wantID   string
	}{
		"settings first": {oauthtest.Options{CIMD: true, AuthMethod: oauth.AuthMethodBasic, PreRegistered: map[string]string{"my-app": "s3cret-value"}},
			&domain.OAuthSettings{ClientID: "my-app", ClientSecret: "s3cret-value"}, "my-app"},
		"metadata document where supported": {oauthtest.Options{CIMD: true, NoDCR: true}, nil, cimd},
		"registration otherwise":            {oauthtest.Options{}, nil, ""},
	} {
		t.Run(name, func(t *testing.T) {
			r := newMgrRig(t, tc.fx)
			m := oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: mustSealer(t, r.key),
				RedirectURI: mgrRedirect, ClientMetadataURL: cimd, Clock: r.clock})
			r.m = m
			r.rt = m.Transport(domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: r.fx.URL(), OAuth: tc.settings}, r.sent)
			r.call()
			r.signIn()
			if got := r.call(); got != http.StatusOK {
				t.Fatalf("call: got %d", got)
			}
			reqs := r.fx.AuthorizeRequests()
			id := reqs[len(reqs)-1].Get("client_id")
			registered := r.fx.Counts().Register
			if tc.wantID != "" && (id != tc.wantID || registered != 0) {
				t.Fatalf("client_id %q after %d registrations, want %q and none", id, registered, tc.wantID)
			}
			if tc.wantID == "" && registered != 1 {
				t.Fatalf("registrations: got %d, want 1", registered)
			}
		})
	}
}

func mustSealer(t *testing.T, key []byte) *oauth.Sealer {
	t.Helper()
	s, err := oauth.NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestManagerSendsTokenOnlyToTheServer covers a redirect (or any request)
// to another origin: the HTTP client calls the transport again for each
// hop, and the token must not go with it.
func TestManagerSendsTokenOnlyToTheServer(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	r.signIn()
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	t.Cleanup(elsewhere.Close)
	req, err := http.NewRequest(http.MethodGet, elsewhere.URL+"/steal", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := r.rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if got := r.sent.last(); got != "" {
		t.Fatalf("a request to another origin carried the token %q", got)
	}
	if got := r.call(); got != http.StatusOK || r.sent.last() == "" {
		t.Fatalf("the server itself: got %d with token %q", got, r.sent.last())
	}
}

// refreshGate holds every refresh_token request until released, telling
// entered when one arrives.
type refreshGate struct {
	entered chan struct{}
	release chan struct{}
}

func (g *refreshGate) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && req.GetBody != nil {
		body, _ := req.GetBody()
		b, _ := io.ReadAll(body)
		if strings.Contains(string(b), "grant_type=refresh_token") {
			g.entered <- struct{}{}
			<-g.release
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

// TestManagerSignOutDuringRefreshSticks covers a sign-out while a refresh
// is out: the renewed tokens must not come back when it finishes.
func TestManagerSignOutDuringRefreshSticks(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	gate := &refreshGate{entered: make(chan struct{}, 1), release: make(chan struct{})}
	sealer, err := oauth.NewSealer(r.key)
	if err != nil {
		t.Fatal(err)
	}
	r.m = oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: sealer, KeySource: domain.KeySourceFile,
		RedirectURI: mgrRedirect, Clock: r.clock, HTTPClient: &http.Client{Transport: gate}})
	r.rt = r.m.Transport(domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: r.fx.URL()}, r.sent)
	r.call()
	r.signIn()
	r.fx.ExpireAccessTokens()
	done := make(chan int, 1)
	go func() { done <- r.call() }()
	<-gate.entered
	if err := r.m.SignOut(context.Background(), "remote"); err != nil {
		t.Fatal(err)
	}
	close(gate.release)
	if got := <-done; got != http.StatusUnauthorized {
		t.Errorf("the call during sign-out: got %d, want 401", got)
	}
	if got := r.state(); got != domain.AuthSignInNeeded {
		t.Fatalf("state: got %s, want %s", got, domain.AuthSignInNeeded)
	}
	if _, err := r.db.OAuthStore().LoadTokens(context.Background(), "remote"); err == nil {
		t.Fatal("tokens are stored again after sign-out")
	}
	if got := r.call(); got != http.StatusUnauthorized || r.sent.last() != "" {
		t.Fatalf("after sign-out: got %d carrying %q", got, r.sent.last())
	}
}

// TestManagerChecksIssuerBeforeShowingAnError covers a mix-up: an error
// response from another authorization server must not have its words
// shown as this server's.
func TestManagerChecksIssuerBeforeShowingAnError(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	au, _ := url.Parse(u)
	q := url.Values{"state": {au.Query().Get("state")}, "error": {"access_denied"},
		"error_description": {"call 555-0100 to restore access"}, "iss": {"https://evil.example.com"}}
	_, err = r.m.Complete(context.Background(), q)
	if !errors.Is(err, oauth.ErrIssuerMismatch) || strings.Contains(err.Error(), "555-0100") {
		t.Fatalf("err = %v, want the issuer mismatch without the other server's words", err)
	}
}

// TestManagerErrorsAreRedacted covers errors that quote the server's
// address: a secret in its query must not reach the API or the page.
func TestManagerErrorsAreRedacted(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	cfg := domain.ServerConfig{Name: "plain", Transport: domain.TransportHTTP,
		URL: "http://mcp.example.com/mcp?apikey=sekrit-value-123"}
	r.m.Transport(cfg, http.DefaultTransport)
	_, err := r.m.Start(context.Background(), "plain")
	if !errors.Is(err, oauth.ErrInsecureURL) || strings.Contains(err.Error(), "sekrit-value-123") {
		t.Fatalf("err = %v, want ErrInsecureURL without the query secret", err)
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
