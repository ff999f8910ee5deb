package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

func TestTokenEndpointAuthMethods(t *testing.T) {
	for _, method := range []string{oauth.AuthMethodNone, oauth.AuthMethodBasic, oauth.AuthMethodPost} {
		t.Run(method, func(t *testing.T) {
			srv := oauthtest.New(t, oauthtest.Options{AuthMethod: method})
			_, c, _ := signIn(t, srv, registered(t, srv), nil)
			if c.AuthMethod != method || c.Kind != oauth.ClientRegistered {
				t.Fatalf("client %+v", c)
			}
			regs := srv.Registrations()
			if len(regs) != 1 || regs[0]["application_type"] != "native" || regs[0]["token_endpoint_auth_method"] != method {
				t.Fatalf("registration %v", regs)
			}
			if g, _ := regs[0]["grant_types"].([]any); len(g) != 2 || g[0] != "authorization_code" || g[1] != "refresh_token" {
				t.Fatalf("grant_types %v", regs[0]["grant_types"])
			}
			tr := srv.TokenRequests()[0]
			switch method {
			case oauth.AuthMethodBasic:
				if !tr.HasBasic || tr.BasicID != c.ID || tr.BasicSecret != c.Secret || tr.Form.Has("client_secret") {
					t.Fatalf("basic: %+v", tr)
				}
			case oauth.AuthMethodPost:
				if tr.HasBasic || tr.Form.Get("client_secret") != c.Secret || tr.Form.Get("client_id") != c.ID {
					t.Fatalf("post: %+v", tr)
				}
			default:
				if tr.HasBasic || tr.Form.Has("client_secret") || tr.Form.Get("client_id") != c.ID {
					t.Fatalf("none: %+v", tr)
				}
			}
		})
	}
}

func TestClientMetadataDocument(t *testing.T) {
	const doc = "https://conformance-test.local/client-metadata.json"
	srv := oauthtest.New(t, oauthtest.Options{CIMD: true})
	_, c, tok := signIn(t, srv, func(md oauth.Metadata) oauth.Client {
		c, ok := oauth.MetadataDocumentClient(md, doc)
		if !ok {
			t.Fatal("CIMD support not seen in the metadata")
		}
		return c
	}, nil)
	if c.ID != doc || tok.Access == "" || srv.Counts().Register != 0 {
		t.Fatalf("client %+v, %d registrations", c, srv.Counts().Register)
	}
	if got := srv.AuthorizeRequests()[0].Get("client_id"); got != doc {
		t.Fatalf("client_id %q", got)
	}
	plain := oauthtest.New(t, oauthtest.Options{})
	md, err := oauth.Discover(context.Background(), plain.Client(), plain.URL(), challengeOf(t, plain))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := oauth.MetadataDocumentClient(md, doc); ok {
		t.Fatal("CIMD used with a server that does not support it")
	}
}

func TestPreRegisteredClientUsesBasic(t *testing.T) {
	srv := oauthtest.New(t, oauthtest.Options{
		NoDCR: true, AuthMethod: oauth.AuthMethodBasic,
		PreRegistered: map[string]string{"pre-registered-client": "pre-registered-secret"},
	})
	md, c, _ := signIn(t, srv, func(md oauth.Metadata) oauth.Client {
		if _, err := oauth.Register(context.Background(), srv.Client(), md, redirectURI, "x"); !errors.Is(err, oauth.ErrNoRegistration) {
			t.Fatalf("register without an endpoint: %v", err)
		}
		return oauth.SettingsClient(md, "pre-registered-client", "pre-registered-secret")
	}, nil)
	tr := srv.TokenRequests()[0]
	if !tr.HasBasic || tr.BasicID != "pre-registered-client" || tr.BasicSecret != "pre-registered-secret" {
		t.Fatalf("token request %+v", tr)
	}
	if c.AuthMethod != oauth.AuthMethodBasic || md.RegistrationEndpoint != "" {
		t.Fatalf("client %+v md %+v", c, md)
	}
}

func TestScopesChoice(t *testing.T) {
	md := oauth.Metadata{ResourceScopes: []string{"a", "b"}}
	ch := oauth.Challenge{Scopes: []string{"c"}}
	cases := []struct {
		md         oauth.Metadata
		ch         oauth.Challenge
		configured []string
		want       []string
	}{
		{md, ch, []string{"z", "z"}, []string{"z"}},
		{md, ch, nil, []string{"c"}},
		{md, oauth.Challenge{}, nil, []string{"a", "b"}},
		{oauth.Metadata{}, oauth.Challenge{}, nil, nil},
		{oauth.Metadata{ScopesSupported: []string{"x", "offline_access"}}, ch, nil, []string{"c", "offline_access"}},
	}
	for i, tc := range cases {
		if got := oauth.Scopes(tc.md, tc.ch, tc.configured); !slices.Equal(got, tc.want) {
			t.Errorf("case %d: %v, want %v", i, got, tc.want)
		}
	}
}

func TestScopeFromChallengeReachesTheAuthorizationRequest(t *testing.T) {
	srv := oauthtest.New(t, oauthtest.Options{ChallengeScopes: []string{"mcp:basic"}, ScopesSupported: []string{"mcp:basic", "offline_access"}})
	_, _, tok := signIn(t, srv, registered(t, srv), nil)
	if got := srv.AuthorizeRequests()[0].Get("scope"); got != "mcp:basic offline_access" {
		t.Fatalf("scope %q", got)
	}
	if !slices.Equal(tok.Scopes, []string{"mcp:basic", "offline_access"}) {
		t.Fatalf("granted %v", tok.Scopes)
	}
	none := oauthtest.New(t, oauthtest.Options{})
	signIn(t, none, registered(t, none), nil)
	if q := none.AuthorizeRequests()[0]; q.Has("scope") {
		t.Fatalf("scope sent when none is defined: %q", q.Get("scope"))
	}
}

func TestAuthorizationRequestUsesPKCE(t *testing.T) {
	srv := oauthtest.New(t, oauthtest.Options{})
	signIn(t, srv, registered(t, srv), nil)
	q := srv.AuthorizeRequests()[0]
	if q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 || len(q.Get("state")) < 20 {
		t.Fatalf("authorization request %v", q)
	}
	if v := srv.TokenRequests()[0].Form.Get("code_verifier"); len(v) < 43 {
		t.Fatalf("verifier %q", v)
	}
}

func TestCheckIssuer(t *testing.T) {
	srv := oauthtest.New(t, oauthtest.Options{Iss: true})
	md, _, _ := signIn(t, srv, registered(t, srv), nil) // signIn checks the iss sent
	if !md.IssParameterSupported {
		t.Fatal("iss support not seen")
	}
	if err := oauth.CheckIssuer(md, ""); !errors.Is(err, oauth.ErrIssuerMissing) {
		t.Fatalf("missing iss: %v", err)
	}
	if err := oauth.CheckIssuer(md, "https://evil.example.com"); !errors.Is(err, oauth.ErrIssuerMismatch) {
		t.Fatalf("wrong iss: %v", err)
	}
	if err := oauth.CheckIssuer(oauth.Metadata{Issuer: "https://a"}, ""); err != nil {
		t.Fatalf("absent iss from a server that does not promise it: %v", err)
	}

	wrong := oauthtest.New(t, oauthtest.Options{WrongIss: "https://evil.example.com"})
	ctx := context.Background()
	md, err := oauth.Discover(ctx, wrong.Client(), wrong.URL(), challengeOf(t, wrong))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := oauth.AuthorizationRequest(md, registered(t, wrong)(md), redirectURI, nil)
	if err := oauth.CheckIssuer(md, authorize(t, wrong, req).Get("iss")); !errors.Is(err, oauth.ErrIssuerMismatch) {
		t.Fatalf("mix-up: %v", err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
