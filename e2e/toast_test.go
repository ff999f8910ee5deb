//go:build e2e

package e2e

import (
	"net/http"
	"net/url"
	"testing"
)

// TestFailedActionShowsToast: an action on a server that another client
// removed meanwhile fails with a localized message in the alert region.
func TestFailedActionShowsToast(t *testing.T) {
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
	if !visible(t, page, drawerSel(name)+` [data-testid="action-restart"]`) {
		t.Skipf("the drawer of %s closed when it was removed, so no action on it can fail here", name)
	}
	click(t, page, drawerSel(name)+` [data-testid="action-restart"]`)
	toast := `[data-testid="toast"]`
	waitTrue(t, page, `sel => { const el = document.querySelector(sel); return !!el && el.textContent.trim() !== ''; }`, toast, "toast text")
	if got := attr(t, page, toast, "role"); got != "alert" {
		t.Errorf("toast role: got %q, want alert", got)
	}
	t.Logf("toast: %q", text(t, page, toast))
}
