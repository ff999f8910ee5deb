//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestConnectPage: the header leads to the Connect page, which creates a
// client token (shown once, and in every snippet), copies it, and revokes
// it; axe-clean in light and dark at each step. A client token opens
// neither the API nor the dashboard.
func TestConnectPage(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	in.waitState(t, "alpha", "connected")
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			page := open(t, in)
			setPreference(t, page, "theme", theme)
			click(t, page, `[data-testid="header"] [data-testid="connect-link"]`)
			waitVisible(t, page, `[data-testid="connect-clients"]`, "the Connect page")
			waitFor(t, page, fmt.Sprintf(`html[data-theme=%q]`, theme), "theme kept")
			if n, _ := page.Locator(`[data-testid="connect-client"]`).Count(); n != 6 {
				t.Errorf("got %d clients, want 6", n)
			}
			checkAxe(t, page, "connect page")

			name := "cursor-" + theme
			if err := page.Locator(`[data-testid="connect-token-name"]`).Fill(name); err != nil {
				t.Fatal(err)
			}
			click(t, page, `[data-testid="connect-token-create"]`)
			secretLoc := waitVisible(t, page, `[data-testid="connect-new-secret"]`, "the new token")
			secret, err := secretLoc.TextContent()
			if err != nil || !strings.HasPrefix(secret, "sbc_") {
				t.Fatalf("new token: got %q, %v", secret, err)
			}
			snippet, _ := page.Locator(`[data-client="cursor"] [data-testid="connect-snippet"]`).TextContent()
			if !strings.Contains(snippet, "Bearer "+secret) || !strings.Contains(snippet, in.URL+"/mcp") {
				t.Errorf("cursor snippet lacks the token or the URL:\n%s", snippet)
			}
			waitFor(t, page, fmt.Sprintf(`[data-testid="connect-token-row"][data-name=%q]`, name), "the token in the list")
			checkAxe(t, page, "token created")

			click(t, page, `[data-testid="connect-new-token"] [data-testid="connect-copy"]`)
			waitFor(t, page, `[data-copy-status="connect-new-secret"]:has-text("Copied")`, "copy announced")

			for _, path := range []string{"/api/v1/servers", "/"} {
				if got := statusWith(t, http.MethodGet, in.URL+path, secret); got != http.StatusUnauthorized {
					t.Errorf("client token on %s: got %d, want 401", path, got)
				}
			}
			if got := statusWith(t, http.MethodPost, in.URL+"/mcp", secret); got == http.StatusUnauthorized {
				t.Errorf("client token on /mcp: got 401, want it let in")
			}

			click(t, page, fmt.Sprintf(`[data-testid="connect-token-row"][data-name=%q] [data-testid="connect-token-revoke"]`, name))
			waitGone(t, page, fmt.Sprintf(`[data-testid="connect-token-row"][data-name=%q]`, name), "revoked token leaves the list")
			waitGone(t, page, `[data-testid="connect-new-secret"]`, "the secret is not shown again")
			checkAxe(t, page, "token revoked")
			if got := statusWith(t, http.MethodPost, in.URL+"/mcp", secret); got != http.StatusUnauthorized {
				t.Errorf("revoked client token on /mcp: got %d, want 401", got)
			}
		})
	}
}

// statusWith sends a bodiless request with tok as the bearer credential
// (not the owner's token the default client adds) and returns the status.
func statusWith(t *testing.T, method, url, tok string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
