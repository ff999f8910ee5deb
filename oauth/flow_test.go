package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

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

func TestRefreshSendsResourceAndRotates(t *testing.T) {
	for _, rotate := range []bool{false, true} {
		srv := oauthtest.New(t, oauthtest.Options{RotateRefresh: rotate})
		md, c, tok := signIn(t, srv, registered(t, srv), nil)
		next, err := oauth.Refresh(context.Background(), srv.Client(), md, c, tok.Refresh)
		if err != nil {
			t.Fatalf("rotate=%v: %v", rotate, err)
		}
		trs := srv.TokenRequests()
		last := trs[len(trs)-1].Form
		if last.Get("grant_type") != "refresh_token" || last.Get("resource") != md.Resource || last.Get("client_id") != c.ID {
			t.Fatalf("refresh request %v", last)
		}
		if !srv.ValidAccessToken(next.Access) || next.Access == tok.Access || next.ExpiresIn != time.Hour || next.Expiry.IsZero() {
			t.Fatalf("refreshed %+v", next)
		}
		if rotate == (next.Refresh == tok.Refresh) {
			t.Fatalf("rotate=%v: refresh token %q after %q", rotate, next.Refresh, tok.Refresh)
		}
		if rotate {
			_, err := oauth.Refresh(context.Background(), srv.Client(), md, c, tok.Refresh)
			if !isTokenError(err, "invalid_grant") || !oauth.IsPermanent(err) {
				t.Fatalf("old refresh token after rotation: %v", err)
			}
		}
	}
}

func TestRefreshFailuresSayWhetherToRetry(t *testing.T) {
	srv := oauthtest.New(t, oauthtest.Options{})
	md, c, tok := signIn(t, srv, registered(t, srv), nil)
	ctx := context.Background()

	srv.FailRefresh(http.StatusServiceUnavailable, "")
	_, err := oauth.Refresh(ctx, srv.Client(), md, c, tok.Refresh)
	var te *oauth.TokenError
	if !errors.As(err, &te) || te.Status != 503 || oauth.IsPermanent(err) {
		t.Fatalf("outage: %v", err)
	}
	srv.FailRefresh(http.StatusBadRequest, "invalid_grant")
	if _, err := oauth.Refresh(ctx, srv.Client(), md, c, tok.Refresh); !oauth.IsPermanent(err) {
		t.Fatalf("invalid_grant: %v", err)
	}
	srv.FailRefresh(0, "")
	srv.Close()
	if _, err := oauth.Refresh(ctx, srv.Client(), md, c, tok.Refresh); err == nil || oauth.IsPermanent(err) {
		t.Fatalf("server gone: %v", err)
	}
}

func TestRevoke(t *testing.T) {
	srv := oauthtest.New(t, oauthtest.Options{Revocation: true})
	md, c, tok := signIn(t, srv, registered(t, srv), nil)
	if err := oauth.Revoke(context.Background(), srv.Client(), md, c, tok); err != nil {
		t.Fatal(err)
	}
	if n := srv.Counts().Revoke; n != 2 || srv.ValidAccessToken(tok.Access) {
		t.Fatalf("%d revocations; token still valid: %v", n, srv.ValidAccessToken(tok.Access))
	}
	if _, err := oauth.Refresh(context.Background(), srv.Client(), md, c, tok.Refresh); !oauth.IsPermanent(err) {
		t.Fatalf("refresh after revocation: %v", err)
	}
	without := oauthtest.New(t, oauthtest.Options{})
	md, c, tok = signIn(t, without, registered(t, without), nil)
	if err := oauth.Revoke(context.Background(), without.Client(), md, c, tok); err != nil || md.RevocationEndpoint != "" {
		t.Fatalf("no endpoint: %v", err)
	}
}

// TestFixtureStepUpAndExpiry drives the fixture's MCP server with a real
// mcp-go client: the write tool asks for more scope, and a token past its
// lifetime (on the fixture's clock) gets 401 invalid_token.
func TestFixtureStepUpAndExpiry(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	srv := oauthtest.New(t, oauthtest.Options{ScopesSupported: []string{"read", "write"}, ChallengeScopes: []string{"read"},
		TokenLifetime: time.Minute, Now: clock})
	_, _, tok := signIn(t, srv, registered(t, srv), nil)

	var last *http.Response
	var lastMu sync.Mutex
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil && resp.StatusCode >= 400 {
			lastMu.Lock()
			last = resp
			lastMu.Unlock()
		}
		return resp, err
	})}
	tr, err := transport.NewStreamableHTTP(srv.URL(), transport.WithHTTPBasicClient(hc),
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok.Access}))
	if err != nil {
		t.Fatal(err)
	}
	cl := client.NewClient(tr)
	ctx := context.Background()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "t", Version: "1"}
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "echo"
	call.Params.Arguments = map[string]any{"text": "hi"}
	res, err := cl.CallTool(ctx, call)
	if err != nil || mcp.GetTextFromContent(res.Content[0]) != "hi" {
		t.Fatalf("echo: %v %v", res, err)
	}
	call.Params.Name = "write"
	if _, err := cl.CallTool(ctx, call); err == nil {
		t.Fatal("write succeeded without the write scope")
	}
	lastMu.Lock()
	ch, ok := oauth.BearerChallenge(last)
	lastMu.Unlock()
	if !ok || ch.Status != 403 || !ch.InsufficientScope() || !slices.Contains(ch.Scopes, oauthtest.WriteScope) || !slices.Contains(ch.Scopes, "read") {
		t.Fatalf("step-up challenge %+v", ch)
	}

	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	call.Params.Name = "echo"
	if _, err := cl.CallTool(ctx, call); err == nil {
		t.Fatal("an expired token still works")
	}
	lastMu.Lock()
	ch, ok = oauth.BearerChallenge(last)
	lastMu.Unlock()
	if !ok || ch.Status != 401 || ch.Error != "invalid_token" {
		t.Fatalf("expiry challenge %+v", ch)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
