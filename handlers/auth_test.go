package handlers_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/static"
)

// anonymous is a client with no credential that does not follow
// redirects, so each answer is seen as it is.
func anonymous() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func send(t *testing.T, c *http.Client, method, u string, header http.Header, body io.Reader) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestTokenIsRequired(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }
	for _, tc := range []struct {
		name, method, path string
		header             http.Header
		wantStatus         int
		wantIn             string // a piece of the body
	}{
		{"api-missing", "GET", handlers.PathServers, nil, 401, `"unauthorized"`},
		{"api-wrong", "GET", handlers.PathServers, bearer("fixture-token-0123456789-abcdefghijklmnoX"), 401, `"unauthorized"`},
		{"api-prefix-of-right", "GET", handlers.PathServers, bearer(fixtureToken[:20]), 401, `"unauthorized"`},
		{"api-other-scheme", "GET", handlers.PathServers, http.Header{"Authorization": {"Basic " + fixtureToken}}, 401, `"unauthorized"`},
		{"api-right", "GET", handlers.PathServers, bearer(fixtureToken), 200, `"files"`},
		{"api-right-lower-case-scheme", "GET", handlers.PathServers, http.Header{"Authorization": {"bearer " + fixtureToken}}, 200, `"files"`},
		{"api-token-in-query-is-not-enough", "GET", handlers.PathServers + "?token=" + fixtureToken, nil, 401, `"unauthorized"`},
		{"api-events-missing", "GET", handlers.PathEvents, nil, 401, `"unauthorized"`},
		{"api-post-missing", "POST", handlers.ServerPath(handlers.PathServerRestart, "files"), nil, 401, `"unauthorized"`},
		{"api-post-missing-unknown-server", "DELETE", handlers.ServerPath(handlers.PathServer, "nope"), nil, 401, `"unauthorized"`},
		{"unknown-path-missing", "POST", "/nope", nil, 401, `"unauthorized"`},
		{"dashboard-missing-shows-sign-in", "GET", handlers.PathDashboard, nil, 401, `data-testid="signin"`},
		{"drawer-missing-shows-sign-in", "GET", handlers.ServerPath(handlers.PathUIDrawer, "files"), nil, 401, `data-testid="signin"`},
		{"page-events-missing", "GET", handlers.PathPageEvents, nil, 401, `"unauthorized"`},
		{"ui-action-missing", "POST", handlers.ServerPath(handlers.PathUIRestart, "files"), nil, 401, `"unauthorized"`},
		{"dashboard-wrong-cookie", "GET", handlers.PathDashboard, http.Header{"Cookie": {"switchboard_session_x=" + fixtureToken}}, 401, `data-testid="signin"`},
		{"dashboard-bearer", "GET", handlers.PathDashboard, bearer(fixtureToken), 200, `data-testid="live"`},
		{"health-is-public", "GET", handlers.PathHealth, nil, 200, `"ok"`},
		{"stylesheet-is-public", "GET", handlers.AssetURL(static.DashboardCSS), nil, 200, `--bg`},
		{"sign-in-is-public", "GET", handlers.PathSignIn, nil, 200, `data-testid="signin"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := send(t, anonymous(), tc.method, f.srv.URL+tc.path, tc.header, nil)
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status: got %d, want %d; body: %.300s", resp.StatusCode, tc.wantStatus, body)
			}
			if !strings.Contains(body, tc.wantIn) {
				t.Errorf("body lacks %s: %.300s", tc.wantIn, body)
			}
			if strings.Contains(body, fixtureToken) {
				t.Errorf("the body repeats the token: %.300s", body)
			}
			if tc.wantStatus == 401 && strings.HasPrefix(tc.path, "/api/") && resp.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("a 401 from the API has no WWW-Authenticate challenge")
			}
		})
	}
	if st, _ := f.fleet.Status("files"); st.State != domain.StateConnected {
		t.Errorf("files after requests without the token: %s, want still connected (nothing ran)", st.State)
	}
}

func TestTokenLinkBecomesCookie(t *testing.T) {
	f := newFixture(t)
	resp, _ := send(t, anonymous(), "GET", f.srv.URL+"/?token="+fixtureToken+"&lang=pt-BR", nil, nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("status: got %d, want 303", resp.StatusCode)
	}
	if got, want := resp.Header.Get("Location"), "/?lang=pt-BR"; got != want {
		t.Errorf("redirect: got %q, want %q (the same URL without the token)", got, want)
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies: got %d, want 1", len(cookies))
	}
	ck := cookies[0]
	if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" {
		t.Errorf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/", ck)
	}
	if strings.Contains(ck.Value, fixtureToken) || ck.Value == "" {
		t.Errorf("cookie value %q: want a session value derived from the token, not the token", ck.Value)
	}
	// The cookie now opens the dashboard, its stream and its actions.
	cookie := http.Header{"Cookie": {ck.Name + "=" + ck.Value}}
	if resp, body := send(t, anonymous(), "GET", f.srv.URL+handlers.PathDashboard, cookie, nil); resp.StatusCode != 200 || !strings.Contains(body, `data-testid="live"`) {
		t.Errorf("dashboard with the cookie: %d %.200s", resp.StatusCode, body)
	}
	// A wrong token in the link shows the sign-in page saying so, no cookie.
	resp, body := send(t, anonymous(), "GET", f.srv.URL+"/?token=wrong", nil, nil)
	if resp.StatusCode != 401 || !strings.Contains(body, `data-testid="signin-error"`) || len(resp.Cookies()) != 0 {
		t.Errorf("wrong link: %d, cookies %v, body %.300s", resp.StatusCode, resp.Cookies(), body)
	}
	if strings.Contains(body, "wrong") {
		t.Errorf("the sign-in page echoes the wrong token back")
	}
}

func TestSignInForm(t *testing.T) {
	f := newFixture(t)
	post := func(tok, next string) (*http.Response, string) {
		form := url.Values{"token": {tok}, "next": {next}}
		return send(t, anonymous(), "POST", f.srv.URL+handlers.PathSignIn,
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, strings.NewReader(form.Encode()))
	}
	resp, body := post("not-the-token", "/")
	if resp.StatusCode != 401 || !strings.Contains(body, `data-testid="signin-error"`) || len(resp.Cookies()) != 0 {
		t.Errorf("wrong token: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	for next, want := range map[string]string{
		"/ui/history?q=1":       "/ui/history?q=1",
		"":                      "/",
		"//evil.example/x":      "/",
		"https://evil.example/": "/",
		`/\evil.example`:        "/",
		"/signin":               "/",
		"/\t/evil.example":      "/",
		"/%09/evil.example":     "/%09/evil.example",
		"/\r\n/x":               "/",
	} {
		resp, _ := post(" "+fixtureToken+"\n", next)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
			t.Errorf("next %q: got %d to %q, want 303 to %q", next, resp.StatusCode, resp.Header.Get("Location"), want)
		}
		if len(resp.Cookies()) != 1 {
			t.Errorf("next %q: no session cookie", next)
		}
	}
}

func TestSignInPageInPlaceComesBack(t *testing.T) {
	f := newFixture(t)
	f.attach(t, stdio("files"))
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	drawer := handlers.ServerPath(handlers.PathUIDrawer, "files") + "?tab=tools"
	resp, body := send(t, c, "GET", f.srv.URL+drawer, nil, nil)
	if resp.StatusCode != 401 || !strings.Contains(body, `name="next" value="`+drawer+`"`) {
		t.Fatalf("sign-in in place: %d %.400s", resp.StatusCode, body)
	}
	form := url.Values{"token": {fixtureToken}, "next": {drawer}}
	resp, _ = send(t, c, "POST", f.srv.URL+handlers.PathSignIn,
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, strings.NewReader(form.Encode()))
	if resp.StatusCode != 200 || resp.Request.URL.RequestURI() != drawer {
		t.Errorf("after signing in: %d at %s, want 200 at %s", resp.StatusCode, resp.Request.URL, drawer)
	}
}

func TestHTMXActionWithoutSessionGoesToSignIn(t *testing.T) {
	f := newFixture(t)
	f.attach(t, stdio("files"))
	resp, _ := send(t, anonymous(), "POST", f.srv.URL+handlers.ServerPath(handlers.PathUIRestart, "files"),
		http.Header{"HX-Request": {"true"}}, nil)
	if resp.StatusCode != 401 || resp.Header.Get("HX-Redirect") != handlers.PathSignIn {
		t.Errorf("got %d with HX-Redirect %q, want 401 to %s", resp.StatusCode, resp.Header.Get("HX-Redirect"), handlers.PathSignIn)
	}
}

// Every GET route of the route table, signed in or not, answers with the
// headers that forbid framing; the list comes from the table itself, so a
// route added later is checked too.
func TestNoFramingOnEveryResponse(t *testing.T) {
	f := newInvFixture(t)
	fill := strings.NewReplacer(":name", "demo", ":tool", "echo", ":id", "none")
	var paths []string
	for _, r := range f.echo.Routes() {
		if r.Method == http.MethodGet {
			paths = append(paths, fill.Replace(strings.TrimSuffix(r.Path, "/*")))
		}
	}
	paths = append(paths, handlers.AssetURL(static.DashboardCSS), "/nope")
	if len(paths) < 15 {
		t.Fatalf("only %d GET routes found: %v", len(paths), paths)
	}
	for _, p := range paths {
		for _, c := range []*http.Client{f.srv.Client(), anonymous()} {
			ctx, cancel := context.WithCancel(t.Context())
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.srv.URL+p, nil)
			resp, err := c.Do(req)
			if err != nil {
				cancel()
				t.Fatalf("GET %s: %v", p, err)
			}
			resp.Body.Close() // event streams end here
			cancel()
			csp := resp.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("%s (%d): CSP %q, want script-src 'self' and frame-ancestors 'none'", p, resp.StatusCode, csp)
			}
			if got := resp.Header.Get("X-Frame-Options"); got != "DENY" {
				t.Errorf("%s (%d): X-Frame-Options %q, want DENY", p, resp.StatusCode, got)
			}
		}
	}
}

func TestFrameAncestorsOptIn(t *testing.T) {
	f := newFixture(t, func(o *handlers.Options) { o.FrameAncestors = []string{"tauri://localhost"} })
	resp, _ := send(t, f.srv.Client(), "GET", f.srv.URL+handlers.PathDashboard, nil, nil)
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors tauri://localhost") {
		t.Errorf("CSP %q, want frame-ancestors tauri://localhost", csp)
	}
	if got := resp.Header.Get("X-Frame-Options"); got != "" {
		t.Errorf("X-Frame-Options %q: it cannot name an origin, so it must be absent when one is allowed", got)
	}
}

// The token link keeps the person on this server whatever its path. The
// requests are written by hand: an HTTP client would clean the paths.
func TestTokenLinkNeverRedirectsAway(t *testing.T) {
	f := newFixture(t)
	host := strings.TrimPrefix(f.srv.URL, "http://")
	for _, path := range []string{"//evil.example", "//evil.example/x", "/\\evil.example", "/%5Cevil.example", "/%2F/evil.example"} {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET %s?token=%s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, fixtureToken, host)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		resp.Body.Close()
		conn.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.Contains(loc, "\\") {
			t.Errorf("%s?token=…: %d to %q, want 303 to a path on this server", path, resp.StatusCode, loc)
		}
	}
}

// signInCookie exchanges the token link for a session cookie.
func signInCookie(t *testing.T, f *fixture, header http.Header) *http.Cookie {
	t.Helper()
	resp, _ := send(t, anonymous(), "GET", f.srv.URL+"/?token="+fixtureToken, header, nil)
	if len(resp.Cookies()) != 1 {
		t.Fatalf("sign-in link: %d cookies, want 1", len(resp.Cookies()))
	}
	return resp.Cookies()[0]
}

func TestSessionCookie(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	f := newFixture(t, func(o *handlers.Options) { o.Now = clock })
	f.attach(t, stdio("files"))
	ck := signInCookie(t, f, nil)
	if other := signInCookie(t, f, nil); other.Value == ck.Value {
		t.Errorf("two sign-ins got the same cookie value %q; want one of its own each", ck.Value)
	}
	if ck.Secure {
		t.Errorf("cookie over plain HTTP is Secure: the browser would never send it back")
	}
	if behindTLS := signInCookie(t, f, http.Header{"X-Forwarded-Proto": {"https"}}); !behindTLS.Secure {
		t.Errorf("cookie behind a TLS proxy is not Secure")
	}
	with := func(value string) http.Header { return http.Header{"Cookie": {ck.Name + "=" + value}} }
	status := func(path string, h http.Header) int {
		resp, _ := send(t, anonymous(), "GET", f.srv.URL+path, h, nil)
		return resp.StatusCode
	}
	if got := status(handlers.PathDashboard, with(ck.Value)); got != 200 {
		t.Errorf("dashboard with the cookie: %d, want 200", got)
	}
	if got := status(handlers.PathServers, with(ck.Value)); got != 401 {
		t.Errorf("API with the dashboard's cookie: %d, want 401 (the API takes the bearer token only)", got)
	}
	tampered := []byte(ck.Value)
	tampered[3] ^= 1
	for name, v := range map[string]string{"tampered": string(tampered), "no-signature": strings.Split(ck.Value, ".")[0],
		"empty": "", "token-itself": fixtureToken} {
		if got := status(handlers.PathDashboard, with(v)); got != 401 {
			t.Errorf("%s cookie: %d, want 401", name, got)
		}
	}
	advance(13 * 24 * time.Hour)
	if got := status(handlers.PathDashboard, with(ck.Value)); got != 200 {
		t.Errorf("cookie after 13 days: %d, want 200", got)
	}
	advance(2 * 24 * time.Hour)
	if got := status(handlers.PathDashboard, with(ck.Value)); got != 401 {
		t.Errorf("cookie after 15 days: %d, want 401 (expired)", got)
	}
}
