//go:build e2e

package e2e

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// A browser without the session sees only the sign-in page; the printed
// link or the pasted token opens the dashboard, and the token never stays
// in the address bar.
func TestSignIn(t *testing.T) {
	in := start(t)
	for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
		page := newPage(t, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US"), ColorScheme: scheme})
		resp, err := page.Goto(in.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status() != http.StatusUnauthorized {
			t.Errorf("dashboard without the token: HTTP %d, want 401", resp.Status())
		}
		waitVisible(t, page, `[data-testid="signin"]`, "the sign-in page")
		if n, _ := page.Locator(`[data-testid="live"], [data-testid="status-chip"]`).Count(); n != 0 {
			t.Errorf("the sign-in page shows %d dashboard elements", n)
		}
		checkAxe(t, page, fmt.Sprintf("sign-in page (%v)", *scheme))

		if err := page.Locator(`[data-testid="signin-token"]`).Fill("not-the-token"); err != nil {
			t.Fatal(err)
		}
		if err := page.Locator(`[data-testid="signin-submit"]`).Click(); err != nil {
			t.Fatal(err)
		}
		waitVisible(t, page, `[data-testid="signin-error"]`, "the wrong-token message")
		checkAxe(t, page, fmt.Sprintf("sign-in page with an error (%v)", *scheme))

		if err := page.Locator(`[data-testid="signin-token"]`).Fill(in.Token); err != nil {
			t.Fatal(err)
		}
		if err := page.Locator(`[data-testid="signin-submit"]`).Click(); err != nil {
			t.Fatal(err)
		}
		waitVisible(t, page, `[data-testid="live"] `+chipSel("demo-stdio"), "the dashboard after signing in")
	}

	// The printed link: cookie set, token gone from the URL, page live.
	page := newPage(t, playwright.BrowserNewContextOptions{Locale: playwright.String("pt-BR")})
	goTo(t, page, in.link())
	if u := page.URL(); strings.Contains(u, "token") {
		t.Errorf("after the sign-in link the address is %q; want the token gone", u)
	}
	waitVisible(t, page, chipSel("demo-stdio"), "the dashboard from the link")
	cookies, err := page.Context().Cookies()
	if err != nil || len(cookies) != 1 {
		t.Fatalf("cookies: %v (%v), want one session cookie", cookies, err)
	}
	if c := cookies[0]; !c.HttpOnly || c.SameSite == nil || *c.SameSite != *playwright.SameSiteAttributeStrict || strings.Contains(c.Value, in.Token) {
		t.Errorf("session cookie %+v: want HttpOnly, SameSite=Strict, not the token itself", c)
	}
	var visible bool
	evalJSON(t, page, `() => JSON.stringify(document.cookie.includes('switchboard'))`, nil, &visible)
	if visible {
		t.Errorf("the session cookie is readable from script")
	}
	// The page's own stream and actions work with the cookie alone.
	waitTrue(t, page, `() => !document.getElementById('stream-lost') || document.getElementById('stream-lost').hidden`, nil, "the page stream is connected")
}

// A page of another origin cannot show the dashboard in a frame, even for
// a person who is signed in: no decoy can borrow their click. The attacker
// is on another port of the same host, so the browser does send the
// SameSite cookie and only frame-ancestors stands in the way. The same page
// allowed by --frame-ancestors does show it, which proves the check sees.
func TestCrossOriginPageCannotFrame(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	attackerURL := "http://" + ln.Addr().String()
	var target string // the dashboard the attacker page frames
	var mu sync.Mutex
	attacker := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>prize</title><h1>Click here</h1>
<iframe id="victim" src="%s/" style="width:1200px;height:900px;opacity:0.5"></iframe>`, target)
	})}
	go attacker.Serve(ln)
	t.Cleanup(func() { attacker.Close() })

	framed := func(in *instance) int {
		t.Helper()
		mu.Lock()
		target = in.URL
		mu.Unlock()
		page := newPage(t, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
		goTo(t, page, in.link()) // signed in: the cookie exists
		if _, err := page.Goto(attackerURL + "/"); err != nil {
			t.Fatal(err)
		}
		if n, _ := page.Locator("#victim").Count(); n != 1 {
			t.Fatalf("the attacker page has no iframe")
		}
		shown := 0
		for _, f := range page.Frames() {
			if f == page.MainFrame() {
				continue
			}
			if n, err := f.Locator(`[data-testid="live"]`).Count(); err == nil {
				shown += n
			}
		}
		return shown
	}
	if n := framed(start(t)); n != 0 {
		t.Errorf("a cross-origin page framed the dashboard (%d elements); framing must be refused", n)
	}
	if n := framed(start(t, "--frame-ancestors", attackerURL)); n == 0 {
		t.Errorf("with --frame-ancestors %s the page still cannot frame the dashboard; the check above proves nothing", attackerURL)
	}
}
