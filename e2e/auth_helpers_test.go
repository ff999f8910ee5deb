//go:build e2e

package e2e

import (
	"net/http"
	"net/url"
	"sync"
	"testing"
)

// tokens maps each running instance's host:port to its access token.
var tokens sync.Map

// parseListening splits the printed sign-in link into the base URL and the
// token, and remembers the token for the instance's host.
func parseListening(t *testing.T, link string) (base, token string) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("token") == "" || u.Path != "/" {
		t.Fatalf("the start-up line's link %q: want http://HOST:PORT/?token=…", link)
	}
	token = u.Query().Get("token")
	tokens.Store(u.Host, token)
	return u.Scheme + "://" + u.Host, token
}

// link is the sign-in link: opening it sets the session cookie and lands
// on the dashboard.
func (in *instance) link() string { return in.URL + "/?token=" + url.QueryEscape(in.Token) }

// bearerTransport adds the access token of the instance a request goes to,
// unless the request carries an Authorization header of its own.
type bearerTransport struct{ next http.RoundTripper }

func (b bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tok, ok := tokens.Load(req.URL.Host)
	if _, set := req.Header["Authorization"]; set || !ok {
		return b.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+tok.(string))
	return b.next.RoundTrip(req)
}
