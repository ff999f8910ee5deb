package oauth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/switchboard-mcp/switchboard/oauth"
)

// TestRefreshDoesNotFollowARedirectElsewhere covers a token endpoint that
// answers 307 to another origin: the refresh token must not be posted on.
func TestRefreshDoesNotFollowARedirectElsewhere(t *testing.T) {
	var reached atomic.Bool
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Store(true)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"a","token_type":"Bearer"}`))
	}))
	t.Cleanup(elsewhere.Close)
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/token", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(as.Close)
	md := oauth.Metadata{Issuer: as.URL, TokenEndpoint: as.URL + "/token"}
	c := oauth.Client{ID: "c", Secret: "s", AuthMethod: oauth.AuthMethodPost}
	if _, err := oauth.Refresh(context.Background(), nil, md, c, "refresh-secret"); err == nil {
		t.Fatal("refresh through a redirect to another origin succeeded")
	}
	if _, err := oauth.Exchange(context.Background(), nil, md, c, "http://127.0.0.1:1/oauth/callback", "code", "verifier"); err == nil {
		t.Fatal("code exchange through a redirect to another origin succeeded")
	}
	if reached.Load() {
		t.Fatal("the other origin received the token request")
	}
}
