package oauthtest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func post(t *testing.T, s *Server, token, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL(), strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestRequiredScopesRefuseWithInsufficientScope(t *testing.T) {
	s := New(t, Options{RequiredScopes: []string{"admin"}})
	narrow, _ := s.IssueToken("any", []string{"read"})
	resp := post(t, s, narrow, initialize)
	if resp.StatusCode != http.StatusForbidden ||
		resp.Header.Get("WWW-Authenticate") != `Bearer resource_metadata="`+s.Origin()+`/.well-known/oauth-protected-resource/mcp", scope="read admin", error="insufficient_scope"` {
		t.Fatalf("%d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	wide, _ := s.IssueToken("any", []string{"admin"})
	if resp := post(t, s, wide, initialize); resp.StatusCode != http.StatusOK {
		t.Fatalf("admin token: %d", resp.StatusCode)
	}
	if c := s.Counts(); c.Forbidden != 1 || c.MCP != 2 {
		t.Fatalf("counts %+v", c)
	}
}

func TestPublicInitialize(t *testing.T) {
	s := New(t, Options{PublicInitialize: true, PRM: PRMPath, ChallengeScopes: []string{"mcp:basic"}})
	if resp := post(t, s, "", initialize); resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %d", resp.StatusCode)
	}
	resp := post(t, s, "", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != `Bearer scope="mcp:basic"` {
		t.Fatalf("%d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}

func TestDenyAuthorizeRedirectsWithTheError(t *testing.T) {
	s := New(t, Options{PreRegistered: map[string]string{"c": ""}})
	s.DenyAuthorize("access_denied", "the person said no")
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	q := url.Values{"client_id": {"c"}, "redirect_uri": {"http://127.0.0.1:1/cb"}, "state": {"st"}, "response_type": {"code"}}
	resp, err := hc.Get(s.Issuer() + "/authorize?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if lq := loc.Query(); lq.Get("error") != "access_denied" || lq.Get("error_description") != "the person said no" || lq.Get("state") != "st" {
		t.Fatalf("redirect %s", loc)
	}
}
