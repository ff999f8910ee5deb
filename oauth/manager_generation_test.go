package oauth_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// TestManagerRefreshOfAReplacedGrantIsDiscarded covers a sign-in that
// completes while the old grant's refresh is out: whatever the refresh
// brings back (new tokens or a refusal) belongs to the replaced grant and
// changes neither the tokens in use, nor the stored ones, nor the state.
// The clock tells the grants apart: each token's expiry is reckoned from
// the manager's clock when it arrived.
func TestManagerRefreshOfAReplacedGrantIsDiscarded(t *testing.T) {
	cases := []struct {
		name    string
		refresh func(*oauthtest.Server)
	}{
		{"renewed-tokens-of-the-old-grant-are-not-kept", func(*oauthtest.Server) {}},
		{"refusal-of-the-old-grant-does-not-sign-out", func(fx *oauthtest.Server) { fx.FailRefresh(http.StatusBadRequest, "invalid_grant") }},
		{"outage-of-the-old-grant-does-not-show-failing", func(fx *oauthtest.Server) { fx.FailRefresh(http.StatusServiceUnavailable, "") }},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newMgrRig(t, oauthtest.Options{TokenLifetime: time.Hour})
			gate := &refreshGate{entered: make(chan struct{}, 1), release: make(chan struct{})}
			sealer, err := oauth.NewSealer(r.key)
			if err != nil {
				t.Fatal(err)
			}
			r.m = oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: sealer, KeySource: domain.KeySourceFile,
				RedirectURI: mgrRedirect, Clock: r.clock, HTTPClient: &http.Client{Transport: gate}})
			cfg := domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: r.fx.URL()}
			r.rt = r.m.Transport(cfg, r.sent)
			r.call()
			r.signIn()
			tt.refresh(r.fx)
			r.fx.ExpireAccessTokens()
			done := make(chan int, 1)
			go func() { done <- r.call() }()
			<-gate.entered

			r.clock.Advance(time.Minute)
			r.signIn() // the new grant, while the old one's refresh waits
			want := r.clock.Now().Add(time.Hour)
			r.clock.Advance(time.Minute) // a refresh result kept would expire later than want
			close(gate.release)

			if got := <-done; got != http.StatusOK {
				t.Errorf("the call waiting on the refresh: got %d, want 200 with the new sign-in's token", got)
			}
			st := r.m.AuthStatus("remote")
			if st.State != domain.AuthSignedIn || !st.ExpiresAt.Equal(want) {
				t.Fatalf("in use: got %s expiring %v, want %s expiring %v", st.State, st.ExpiresAt, domain.AuthSignedIn, want)
			}
			again := oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: sealer, RedirectURI: mgrRedirect, Clock: r.clock})
			again.Transport(cfg, http.DefaultTransport)
			if st := again.AuthStatus("remote"); st == nil || !st.ExpiresAt.Equal(want) {
				t.Fatalf("stored: got %+v, want the new sign-in expiring %v", st, want)
			}
			if got := r.call(); got != http.StatusOK {
				t.Fatalf("a call after: got %d, want 200", got)
			}
		})
	}
}
