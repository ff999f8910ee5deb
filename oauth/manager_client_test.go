package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

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
