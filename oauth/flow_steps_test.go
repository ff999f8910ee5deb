package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// redirectURI is where the fixture sends the "browser" back; nothing
// listens there: the tests stop at the redirect and read its address.
const redirectURI = "http://127.0.0.1:7777/oauth/callback"

// challengeOf makes an unauthenticated MCP request and returns the
// fixture's Bearer challenge, as the manager would see it.
func challengeOf(t *testing.T, srv *oauthtest.Server) oauth.Challenge {
	t.Helper()
	resp := mcpPost(t, srv, "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("unauthenticated request answered %d", resp.StatusCode)
	}
	c, ok := oauth.BearerChallenge(resp)
	if !ok {
		t.Fatalf("no Bearer challenge in %v", resp.Header)
	}
	return c
}

func mcpPost(t *testing.T, srv *oauthtest.Server, token, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL(), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// authorize plays the browser: it opens the authorization URL and returns
// the callback address's query without following the redirect there.
func authorize(t *testing.T, srv *oauthtest.Server, req oauth.Request) url.Values {
	t.Helper()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(req.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize answered %d", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), redirectURI) {
		t.Fatalf("redirected to %q (%v)", resp.Header.Get("Location"), err)
	}
	q := loc.Query()
	if q.Get("state") != req.State {
		t.Fatalf("state %q came back as %q", req.State, q.Get("state"))
	}
	return q
}

// signIn runs a whole sign-in: discovery from a real challenge, a client
// from makeClient, authorization, the issuer check and the exchange.
func signIn(t *testing.T, srv *oauthtest.Server, makeClient func(oauth.Metadata) oauth.Client, configured []string) (oauth.Metadata, oauth.Client, oauth.Token) {
	t.Helper()
	ctx := context.Background()
	ch := challengeOf(t, srv)
	md, err := oauth.Discover(ctx, srv.Client(), srv.URL(), ch)
	if err != nil {
		t.Fatalf("discover: %v", err)
	}
	c := makeClient(md)
	req, err := oauth.AuthorizationRequest(md, c, redirectURI, oauth.Scopes(md, ch, configured))
	if err != nil {
		t.Fatal(err)
	}
	q := authorize(t, srv, req)
	if err := oauth.CheckIssuer(md, q.Get("iss")); err != nil {
		t.Fatal(err)
	}
	tok, err := oauth.Exchange(ctx, srv.Client(), md, c, redirectURI, q.Get("code"), req.Verifier)
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	return md, c, tok
}

func registered(t *testing.T, srv *oauthtest.Server) func(oauth.Metadata) oauth.Client {
	return func(md oauth.Metadata) oauth.Client {
		t.Helper()
		c, err := oauth.Register(context.Background(), srv.Client(), md, redirectURI, "Switchboard")
		if err != nil {
			t.Fatalf("register: %v", err)
		}
		return c
	}
}

func isTokenError(err error, code string) bool {
	var te *oauth.TokenError
	return errors.As(err, &te) && te.Code == code
}
