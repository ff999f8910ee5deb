//go:build e2e

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// startOAuth runs switchboard with one remote server, "linear", behind a
// local authorization server in this test process.
func startOAuth(t *testing.T, opts oauthtest.Options) (*instance, *oauthtest.Server) {
	t.Helper()
	as := oauthtest.New(t, opts)
	path := filepath.Join(t.TempDir(), "settings.json")
	writeSettings(t, path, servers{"linear": {"url": as.URL()}})
	in := run(t, path, "--settings", path, "--key-file", filepath.Join(t.TempDir(), "oauth.key"))
	return in, as
}

// A server that needs a sign-in says so in words, not as a red error; Sign
// in in its drawer opens a new tab that goes through the authorization
// server to the callback page, and the chip turns connected without a
// reload. The drawer and the callback page are axe-clean.
func TestOAuthSignInFromTheDrawer(t *testing.T) {
	in, as := startOAuth(t, oauthtest.Options{Iss: true, ScopesSupported: []string{"read"}})
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})

	waitChip(t, page, "linear", "sign_in")
	if got := text(t, page, listChipSel("linear")+` [data-testid="chip-badge"]`); got != "Sign-in needed" {
		t.Errorf("chip badge %q, want %q", got, "Sign-in needed")
	}
	if n := count(t, page, listChipSel("linear")+" .dot-error"); n != 0 {
		t.Errorf("the chip of a server waiting for a sign-in is drawn as an error")
	}

	openDrawer(t, page, "linear")
	section := drawerSel("linear") + ` [data-testid="drawer-auth"]`
	waitVisible(t, page, section+`[data-auth-state="sign_in_needed"]`, "the drawer's sign-in section")
	if n := count(t, page, drawerSel("linear")+` [data-testid="drawer-error"]`); n != 0 {
		t.Errorf("the drawer shows the sign-in as an error")
	}
	checkAxe(t, page, "drawer of a server that needs a sign-in")

	tab, err := page.Context().ExpectPage(func() error {
		return page.Locator(section + ` [data-testid="auth-signin"]`).Click()
	})
	if err != nil {
		t.Fatalf("Sign in opened no tab: %v", err)
	}
	waitVisible(t, tab, `[data-testid="oauth-page"][data-kind="signed_in"]`, "the callback page says signed in")
	if got := text(t, tab, "h1"); got != "Signed in to linear" {
		t.Errorf("callback title %q", got)
	}
	if u := tab.URL(); !strings.HasPrefix(u, in.URL+"/oauth/callback?") {
		t.Errorf("callback tab at %q, want %s/oauth/callback?…", u, in.URL)
	}
	checkAxe(t, tab, "callback page")

	// The dashboard hears of it over its event stream: no reload.
	waitAllChips(t, page, "linear", "connected")
	waitVisible(t, page, section+`[data-auth-state="signed_in"]`, "the drawer's section says signed in")
	checkAxe(t, page, "drawer of a signed-in server")
	if c := as.Counts(); c.Authorize != 1 || c.Token < 1 {
		t.Errorf("authorization server saw %+v, want one authorize and a token request", c)
	}

	// Sign out: the tokens go, the server waits for a person again.
	click(t, page, section+` [data-testid="auth-signout"]`)
	// The answer's notice may be replaced at once by the drawer's live
	// reload of the new state, so the state is what is checked.
	waitVisible(t, page, section+`[data-auth-state="sign_in_needed"] [data-testid="auth-signin"]`, "Sign in offered after signing out")
	waitChip(t, page, "linear", "sign_in")
}

// A callback nobody started shows the unknown page and echoes nothing.
func TestOAuthCallbackUnknownState(t *testing.T) {
	in, _ := startOAuth(t, oauthtest.Options{})
	page := newPage(t, playwright.BrowserNewContextOptions{Locale: playwright.String("pt-BR")})
	resp, err := page.Goto(in.URL + "/oauth/callback?error=access_denied&error_description=EVIL-WORDS&state=forged")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status() != 400 {
		t.Errorf("unknown state: HTTP %d, want 400", resp.Status())
	}
	waitVisible(t, page, `[data-testid="oauth-page"][data-kind="unknown"]`, "the unknown sign-in page")
	if body := text(t, page, "body"); strings.Contains(body, "EVIL") {
		t.Errorf("the page echoes the authorization server's words for a state nobody issued: %q", body)
	}
	checkAxe(t, page, "unknown callback page")
}

// signInByAPI signs in as a script would: start through the API, then
// follow the authorization server's redirects like a browser, which ends
// at Switchboard's callback.
func signInByAPI(t *testing.T, in *instance, server string) {
	t.Helper()
	auth := startByAPI(t, in, server)
	resp, err := (&http.Client{}).Get(auth)
	if err != nil {
		t.Fatalf("follow the authorization URL: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Request.URL.Path, "/oauth/callback") {
		t.Fatalf("sign-in ended at %s with %d: %s", resp.Request.URL, resp.StatusCode, clip(body))
	}
}

// startByAPI starts a sign-in through the API and returns the
// authorization URL.
func startByAPI(t *testing.T, in *instance, server string) string {
	t.Helper()
	code, body := apiPost(t, in, "/api/v1/servers/"+url.PathEscape(server)+"/auth/start")
	if code != http.StatusOK {
		t.Fatalf("start sign-in: got %d %s, want 200", code, clip(body))
	}
	var out struct {
		AuthorizationURL string `json:"authorizationUrl"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.AuthorizationURL == "" {
		t.Fatalf("start sign-in: %v %s", err, clip(body))
	}
	return out.AuthorizationURL
}

// A browser on another machine cannot reach 127.0.0.1: the person pastes
// the address it was sent to into the drawer, and the server connects.
func TestOAuthSignInByPastingTheAddress(t *testing.T) {
	in, as := startOAuth(t, oauthtest.Options{})
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("zh-CN")})
	waitChip(t, page, "linear", "sign_in")

	noFollow := as.Client()
	noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := noFollow.Get(startByAPI(t, in, "linear"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	callback := resp.Header.Get("Location")
	if !strings.Contains(callback, "/oauth/callback?") {
		t.Fatalf("the authorization server sent the browser to %q", callback)
	}

	openDrawer(t, page, "linear")
	section := drawerSel("linear") + ` [data-testid="drawer-auth"]`
	waitVisible(t, page, section+`[data-auth-state="signing_in"]`, "the section says signing in")
	click(t, page, section+` [data-testid="auth-paste-box"] summary`)
	if err := page.Locator(section + ` [data-testid="auth-paste-url"]`).Fill(callback); err != nil {
		t.Fatal(err)
	}
	checkAxe(t, page, "drawer with the paste form open")
	if err := page.Locator(section + ` [data-testid="auth-paste-url"]`).Press("Enter"); err != nil {
		t.Fatal(err)
	}
	waitAllChips(t, page, "linear", "connected")
	waitVisible(t, page, section+`[data-auth-state="signed_in"]`, "the section says signed in")
}

// A call the server refuses for lack of access ends as needs_more_access;
// its card offers Sign in with more access, and Retry then succeeds.
func TestOAuthStepUpFromTheCard(t *testing.T) {
	in, _ := startOAuth(t, oauthtest.Options{ScopesSupported: []string{"read", oauthtest.WriteScope}, ChallengeScopes: []string{"read"}})
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	signInByAPI(t, in, "linear")
	waitAllChips(t, page, "linear", "connected")

	inv := callTool(t, in, "linear", "write", map[string]any{"text": "hi"})
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "error")
	waitVisible(t, page, card+` [data-testid="invocation-signin-more"]`, "the card's sign-in offer")
	if got := text(t, page, card+` [data-testid="invocation-signin-scopes"]`); !strings.Contains(got, oauthtest.WriteScope) {
		t.Errorf("the card asks for %q, want it to name %q", got, oauthtest.WriteScope)
	}
	checkAxe(t, page, "card needing more access")

	tab, err := page.Context().ExpectPage(func() error {
		return page.Locator(card + ` [data-testid="invocation-signin-more"]`).Click()
	})
	if err != nil {
		t.Fatalf("Sign in with more access opened no tab: %v", err)
	}
	waitVisible(t, tab, `[data-testid="oauth-page"][data-kind="signed_in"]`, "the callback page says signed in")
	waitAllChips(t, page, "linear", "connected")

	click(t, page, card+` [data-testid="invocation-retry"]`)
	waitVisible(t, page, `#calls-list [data-testid="call-row"][data-status="success"]`, "the retried call succeeds")
}

// An authorization server that does not register clients: Sign in says a
// client ID is needed, the drawer asks for one with the redirect address
// to register, and signing in works with the one given.
func TestOAuthSignInWithAClientIDGivenByHand(t *testing.T) {
	in, _ := startOAuth(t, oauthtest.Options{NoDCR: true, PreRegistered: map[string]string{"by-hand": ""}})
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("pt-BR")})
	waitChip(t, page, "linear", "sign_in")
	openDrawer(t, page, "linear")
	section := drawerSel("linear") + ` [data-testid="drawer-auth"]`

	tab, err := page.Context().ExpectPage(func() error {
		return page.Locator(section + ` [data-testid="auth-signin"]`).Click()
	})
	if err != nil {
		t.Fatalf("Sign in opened no tab: %v", err)
	}
	waitVisible(t, tab, `[data-testid="oauth-page"][data-kind="start_failed"]`, "the tab says a client ID is needed")
	checkAxe(t, tab, "start-failed page")
	if err := tab.Close(); err != nil {
		t.Fatal(err)
	}

	waitVisible(t, page, section+`[data-auth-state="needs_client_id"] [data-testid="auth-client"]`, "the drawer asks for a client ID")
	if got := text(t, page, section+` [data-testid="auth-redirect-uri"]`); got != in.URL+"/oauth/callback" && !strings.HasSuffix(got, "/oauth/callback") {
		t.Errorf("redirect URI to register %q", got)
	}
	checkAxe(t, page, "drawer asking for a client ID")
	if err := page.Locator(section + ` [data-testid="auth-client-id"]`).Fill("by-hand"); err != nil {
		t.Fatal(err)
	}
	click(t, page, section+` [data-testid="auth-client-save"]`)
	waitVisible(t, page, section+` [data-testid="auth-signin"]`, "Sign in offered again")

	tab, err = page.Context().ExpectPage(func() error {
		return page.Locator(section + ` [data-testid="auth-signin"]`).Click()
	})
	if err != nil {
		t.Fatalf("Sign in opened no tab: %v", err)
	}
	waitVisible(t, tab, `[data-testid="oauth-page"][data-kind="signed_in"]`, "the callback page says signed in")
	waitAllChips(t, page, "linear", "connected")
}
