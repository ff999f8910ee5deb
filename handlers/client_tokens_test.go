package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// standInMCP is where these tests stand in for the gateway's MCP
// endpoints: it answers with the token name the auth middleware recorded.
const standInMCP = "/mcp/stand-in"

// newTokenFixture is a fixture with client tokens kept in a real SQLite
// database, and stand-in MCP routes.
func newTokenFixture(t *testing.T) (*fixture, *domain.ClientTokens) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tokens, err := domain.NewClientTokens(context.Background(), domain.ClientTokensOptions{
		Store: db.ClientTokenStore(), Clock: domaintest.NewClock(testNow),
	})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(o *handlers.Options) { o.ClientTokens = tokens })
	who := func(c echo.Context) error {
		return c.String(http.StatusOK, "token:"+handlers.MCPTokenName(c.Request().Context()))
	}
	f.echo.POST(standInMCP, who)
	f.echo.POST("/mcp", who)
	return f, tokens
}

var testNow = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// doBody is do with a request body.
func (f *fixture) doBody(t *testing.T, method, path string, header http.Header, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, f.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return resp.StatusCode, out
}

func bearer(tok string) http.Header {
	return http.Header{"Authorization": {"Bearer " + tok}}
}

func TestClientTokenOpensOnlyTheMCPEndpoints(t *testing.T) {
	f, _ := newTokenFixture(t)

	status, body := f.doBody(t, http.MethodPost, handlers.PathClientTokens, nil, `{"name":"claude-code"}`)
	if status != http.StatusCreated {
		t.Fatalf("create: got %d %s, want 201", status, body)
	}
	created := decode[handlers.NewClientTokenDTO](t, body)
	if created.Name != "claude-code" || !strings.HasPrefix(created.Token, domain.ClientTokenPrefix) {
		t.Fatalf("create: got %+v, want claude-code and a secret", created)
	}
	client := bearer(created.Token)

	for _, path := range []string{"/mcp", standInMCP} {
		if status, body := f.do(t, http.MethodPost, path, client); status != http.StatusOK || string(body) != "token:claude-code" {
			t.Errorf("client token on %s: got %d %q, want 200 token:claude-code", path, status, body)
		}
		if status, body := f.do(t, http.MethodPost, path, nil); status != http.StatusOK || string(body) != "token:"+domain.OwnerTokenName {
			t.Errorf("owner token on %s: got %d %q, want 200 token:owner", path, status, body)
		}
	}
	for _, path := range []string{handlers.PathServers, handlers.PathClientTokens, handlers.PathConfig, handlers.PathDashboard, handlers.PathConnect, "/mcp/../api/v1/servers"} {
		if status, _ := f.do(t, http.MethodGet, path, client); status == http.StatusOK {
			t.Errorf("client token on GET %s: got 200, want it refused", path)
		}
	}
	status, body = f.do(t, http.MethodGet, handlers.PathServers, client)
	wantError(t, status, body, http.StatusUnauthorized, "unauthorized")
	if status, _ := f.do(t, http.MethodGet, handlers.PathDashboard, client); status != http.StatusUnauthorized {
		t.Errorf("client token on the dashboard: got %d, want 401", status)
	}
	// Nor may it mint or revoke tokens.
	if status, _ := f.doBody(t, http.MethodPost, handlers.PathClientTokens, client, `{"name":"more"}`); status != http.StatusUnauthorized {
		t.Errorf("client token creating a token: got %d, want 401", status)
	}

	for _, h := range []http.Header{{"Authorization": {"Basic eDp5"}}, bearer("sbc_not-a-token"), bearer(created.Token + "x")} {
		status, body := f.do(t, http.MethodPost, standInMCP, h)
		wantError(t, status, body, http.StatusUnauthorized, "unauthorized")
	}

	status, body = f.do(t, http.MethodGet, handlers.PathClientTokens, nil)
	if status != http.StatusOK || strings.Contains(string(body), created.Token) {
		t.Fatalf("list: got %d %s, want 200 without the secret", status, body)
	}
	list := decode[handlers.ClientTokenListDTO](t, body)
	if len(list.ClientTokens) != 1 || list.ClientTokens[0].Name != "claude-code" || list.ClientTokens[0].LastUsedAt == nil {
		t.Errorf("list: got %+v, want claude-code, used", list)
	}

	if status, body := f.do(t, http.MethodDelete, handlers.ServerPath(handlers.PathClientToken, "claude-code"), nil); status != http.StatusNoContent {
		t.Fatalf("revoke: got %d %s, want 204", status, body)
	}
	status, body = f.do(t, http.MethodPost, standInMCP, client)
	wantError(t, status, body, http.StatusUnauthorized, "unauthorized")
	status, body = f.do(t, http.MethodDelete, handlers.ServerPath(handlers.PathClientToken, "claude-code"), nil)
	wantError(t, status, body, http.StatusNotFound, "not_found")
}

func TestClientTokenAPIRefusesBadNames(t *testing.T) {
	f, _ := newTokenFixture(t)
	for _, tc := range []struct {
		body, code string
		status     int
	}{
		{`{"name":"owner"}`, "invalid_name", http.StatusUnprocessableEntity},
		{`{"name":"a b"}`, "invalid_name", http.StatusUnprocessableEntity},
		{`{"name":""}`, "invalid_name", http.StatusUnprocessableEntity},
		{`{"nom":"x"}`, "bad_request", http.StatusBadRequest},
		{`[]`, "bad_request", http.StatusBadRequest},
	} {
		status, body := f.doBody(t, http.MethodPost, handlers.PathClientTokens, nil, tc.body)
		wantError(t, status, body, tc.status, tc.code)
	}
	if status, _ := f.doBody(t, http.MethodPost, handlers.PathClientTokens, nil, `{"name":"cursor"}`); status != http.StatusCreated {
		t.Fatalf("create: got %d", status)
	}
	status, body := f.doBody(t, http.MethodPost, handlers.PathClientTokens, nil, `{"name":"cursor"}`)
	wantError(t, status, body, http.StatusConflict, "name_taken")
}

func TestConnectPageCreatesAndRevokesTokens(t *testing.T) {
	f, tokens := newTokenFixture(t)
	status, body := f.do(t, http.MethodGet, handlers.PathConnect, nil)
	if status != http.StatusOK {
		t.Fatalf("connect page: got %d", status)
	}
	for _, want := range []string{`data-testid="connect-tokens-none"`, `data-client="claude-desktop"`, `data-client="qwen-code"`, "&#34;stdio&#34;", "/mcp&#34;"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("connect page lacks %s", want)
		}
	}

	form := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Hx-Request": {"true"}}
	status, body = f.doBody(t, http.MethodPost, handlers.PathUIClientTokens, form, url.Values{"name": {"cursor"}}.Encode())
	if status != http.StatusOK {
		t.Fatalf("create form: got %d %s", status, body)
	}
	list := tokens.List()
	if len(list) != 1 || list[0].Name != "cursor" {
		t.Fatalf("after the form: got %+v, want cursor", list)
	}
	page := string(body)
	i := strings.Index(page, domain.ClientTokenPrefix)
	if i < 0 || !strings.Contains(page, `data-testid="connect-new-secret"`) {
		t.Fatalf("create form answer shows no secret: %s", page)
	}
	secret := page[i : i+len(domain.ClientTokenPrefix)+43]
	if name, ok := tokens.Verify(context.Background(), secret); !ok || name != "cursor" {
		t.Errorf("the secret shown does not verify: %q", secret)
	}
	if strings.Count(page, secret) < 7 {
		t.Errorf("the secret appears %d times, want it in the notice and in all six snippets", strings.Count(page, secret))
	}

	status, body = f.doBody(t, http.MethodPost, handlers.PathUIClientTokens, form, url.Values{"name": {"owner"}}.Encode())
	if status != http.StatusOK || !strings.Contains(string(body), `data-testid="connect-token-error"`) {
		t.Errorf("reserved name: got %d, want the form with an error", status)
	}

	status, body = f.doBody(t, http.MethodPost, handlers.ServerPath(handlers.PathUIClientTokenDel, "cursor"), form, "")
	if status != http.StatusOK || strings.Contains(string(body), secret) || len(tokens.List()) != 0 {
		t.Errorf("revoke form: got %d, %d tokens left", status, len(tokens.List()))
	}
	if _, ok := tokens.Verify(context.Background(), secret); ok {
		t.Errorf("revoked token still verifies")
	}
}
