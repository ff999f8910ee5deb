//go:build e2e

package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestFailedActionShowsToast: an action the supervisor refuses (restarting
// a disabled server) answers with a localized message in the alert region.
func TestFailedActionShowsToast(t *testing.T) {
	const name = "paused"
	in := startWith(t, servers{name: demoStdio(name, map[string]any{"disabled": true})})
	for _, tt := range []struct{ locale, want string }{
		{"en-US", "Enable it"},
		{"pt-BR", "Ative"},
	} {
		page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String(tt.locale)})
		waitAllChips(t, page, name, "disabled")
		openDrawer(t, page, name)
		click(t, page, drawerSel(name)+` [data-testid="action-restart"]`)
		toast := `[data-testid="toast"]`
		waitTrue(t, page, `sel => { const el = document.querySelector(sel); return !!el && el.textContent.trim() !== ''; }`, toast, "toast text")
		if got := attr(t, page, toast, "role"); got != "alert" {
			t.Errorf("%s: toast role %q, want alert", tt.locale, got)
		}
		if got := text(t, page, toast); !strings.Contains(got, tt.want) || !strings.Contains(got, name) {
			t.Errorf("%s: toast %q, want the server's name and %q", tt.locale, got, tt.want)
		}
	}
}

// TestDrawerOfRemovedServerCloses: a server removed by another client
// takes its open drawer with it, rather than leaving actions on nothing.
func TestDrawerOfRemovedServerCloses(t *testing.T) {
	const name = "gone"
	in := startWith(t, servers{name: demoStdio(name, nil), "stays": demoStdio("stays", nil)})
	page := open(t, in)
	waitAllChips(t, page, name, "connected")
	openDrawer(t, page, name)

	req, _ := http.NewRequest(http.MethodDelete, in.URL+"/api/v1/servers/"+url.PathEscape(name), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE %s: got %s, want 204", name, resp.Status)
	}
	waitGone(t, page, rowSel(name), "row of the server removed through the API")
	waitGone(t, page, drawerSel(name), "drawer of the removed server")
	if got := focused(t, page); got.TestID == "" && got.Tag == "BODY" {
		t.Errorf("focus fell to <body> after the drawer closed; want it on the page's content")
	}
}
