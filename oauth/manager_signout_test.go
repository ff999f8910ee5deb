package oauth_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

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
