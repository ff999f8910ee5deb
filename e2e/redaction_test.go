//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// TestSecretsNeverReachThePage: URL userinfo, a secret-looking query value
// and a configured header's value appear nowhere in the page, the tooltip
// or the drawer of a failing server.
func TestSecretsNeverReachThePage(t *testing.T) {
	const name = "leaky"
	secrets := []string{"hunter2-userinfo", "qs-token-value-77", "hdr-bearer-secret-99"}
	in := startWith(t, servers{name: {
		"url":     "http://admin:" + secrets[0] + "@127.0.0.1:1/mcp?access_token=" + secrets[1],
		"headers": map[string]string{"Authorization": "Bearer " + secrets[2]},
	}})
	page := open(t, in)
	chipWhen(t, page, name, "error")
	openDrawer(t, page, name)
	waitFor(t, page, drawerSel(name)+` [data-testid="drawer-target"]`, "drawer target")
	html, err := page.Content()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if i := strings.Index(html, s); i >= 0 {
			t.Errorf("page shows the secret %q: ...%s...", s, html[max(0, i-80):min(len(html), i+40)])
		}
	}
}
