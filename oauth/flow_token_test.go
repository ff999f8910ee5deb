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
