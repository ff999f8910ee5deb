package mcpclient_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

const signInRedirect = "http://127.0.0.1:7391/oauth/callback"

// newSignInManager is an OAuth manager over a real SQLite store.
func newSignInManager(t *testing.T) *oauth.Manager {
	t.Helper()
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
	return oauth.NewManager(oauth.ManagerOptions{Store: db.OAuthStore(), Sealer: sealer, RedirectURI: signInRedirect})
}

// signInAsBrowser signs server in, the fixture's redirect standing in
// for the person's browser.
func signInAsBrowser(t *testing.T, m *oauth.Manager, server string) {
	t.Helper()
	oauthtest.SignIn(t, m, server)
}

func TestSignInThenConnectAndStepUp(t *testing.T) {
	t.Parallel()
	fx := oauthtest.New(t, oauthtest.Options{ScopesSupported: []string{"read", oauthtest.WriteScope}, ChallengeScopes: []string{"read"}})
	m := newSignInManager(t)
	c := mcpclient.New(mcpclient.Options{Auth: m})
	cfg := remote(domain.TransportHTTP, fx.URL())

	ce := connectErr(t, c, cfg, nil)
	if ce.Category != domain.CategorySignIn {
		t.Fatalf("before sign-in: got %s (%v), want %s", ce.Category, ce.Err, domain.CategorySignIn)
	}
	if st := m.AuthStatus("remote"); st == nil || st.State != domain.AuthSignInNeeded {
		t.Fatalf("status: got %+v, want sign_in_needed", st)
	}

	signInAsBrowser(t, m, "remote")
	s := connect(t, c, cfg, nil)
	if _, err := s.CallTool(connectCtx(t), "echo", json.RawMessage(`{"message":"hi"}`), nil); err != nil {
		t.Fatalf("echo: %v", err)
	}

	_, err := s.CallTool(connectCtx(t), "write", json.RawMessage(`{}`), nil)
	var nma *domain.NeedsMoreAccessError
	if !errors.As(err, &nma) || !slices.Contains(nma.Scopes, oauthtest.WriteScope) {
		t.Fatalf("write: got %v, want a NeedsMoreAccessError asking for %s", err, oauthtest.WriteScope)
	}
	select {
	case <-s.Done():
		t.Fatalf("the session ended on a refused call: %v", s.Err())
	default:
	}
	if st := m.AuthStatus("remote"); !st.MoreAccess {
		t.Fatalf("status: got %+v, want more access", st)
	}

	signInAsBrowser(t, m, "remote")
	s2 := connect(t, c, cfg, nil)
	if _, err := s2.CallTool(connectCtx(t), "write", json.RawMessage(`{}`), nil); err != nil {
		t.Fatalf("write after step-up: %v", err)
	}
}

func TestRefusalWithoutSignInStaysAnAuthError(t *testing.T) {
	t.Parallel()
	fx := oauthtest.New(t, oauthtest.Options{})
	for name, tc := range map[string]struct {
		opts mcpclient.Options
		cfg  domain.ServerConfig
	}{
		"no authenticator": {mcpclient.Options{}, remote(domain.TransportHTTP, fx.URL())},
		"own authorization header": {mcpclient.Options{Auth: newSignInManager(t)}, domain.ServerConfig{Name: "remote",
			Transport: domain.TransportHTTP, URL: fx.URL(), Headers: map[string]string{"Authorization": "Bearer wrong"}}},
	} {
		t.Run(name, func(t *testing.T) {
			ce := connectErr(t, mcpclient.New(tc.opts), tc.cfg, nil)
			if ce.Category != domain.CategoryAuth {
				t.Fatalf("got %s (%v), want %s", ce.Category, ce.Err, domain.CategoryAuth)
			}
		})
	}
}

func TestExpiredSignInEndsTheSessionForSignIn(t *testing.T) {
	t.Parallel()
	fx := oauthtest.New(t, oauthtest.Options{NoRefreshToken: true})
	m := newSignInManager(t)
	c := mcpclient.New(mcpclient.Options{Auth: m})
	cfg := remote(domain.TransportHTTP, fx.URL())
	connectErr(t, c, cfg, nil)
	signInAsBrowser(t, m, "remote")
	s, err := c.Connect(connectCtx(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fx.ExpireAccessTokens()
	_, err = s.List(connectCtx(t), domain.ListTools)
	var ce *domain.ConnError
	if !errors.As(err, &ce) || ce.Category != domain.CategorySignIn {
		t.Fatalf("list: got %v, want a %s error", err, domain.CategorySignIn)
	}
	if got := waitDone(t, s); got.Category != domain.CategorySignIn {
		t.Fatalf("session ended with %s, want %s", got.Category, domain.CategorySignIn)
	}
	if st := m.AuthStatus("remote"); st.State != domain.AuthSignInNeeded {
		t.Fatalf("status: got %+v, want sign_in_needed", st)
	}
}

func TestForbiddenWithoutInsufficientScopeIsAnAuthError(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="access_denied"`)
		http.Error(w, "this account may not use the server", http.StatusForbidden)
	}))
	t.Cleanup(srv.Close)
	ce := connectErr(t, mcpclient.New(mcpclient.Options{Auth: newSignInManager(t)}), remote(domain.TransportHTTP, srv.URL), nil)
	if ce.Category != domain.CategoryAuth {
		t.Fatalf("got %s (%v), want %s", ce.Category, ce.Err, domain.CategoryAuth)
	}
	if !strings.Contains(ce.Err.Error(), "may not use the server") {
		t.Errorf("error %q does not give the server's words", ce.Err)
	}
}
