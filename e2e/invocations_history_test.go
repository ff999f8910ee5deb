//go:build e2e

package e2e

import (
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestInvocationHistorySurvivesRestart: a finished call made by one
// process is in the call list (filtered too), the drawer and the API of the next
// process on the same data directory and project; a call still running
// when the process stopped is not left running forever.
func TestInvocationHistorySurvivesRestart(t *testing.T) {
	p := newPersistent(t, servers{"alpha": demoStdio("alpha", map[string]any{"callTimeoutSeconds": 600})})
	first, stop := p.start(t)
	first.waitState(t, "alpha", "connected")
	invs := followInvocations(t, first)
	page := openCards(t, first, playwright.BrowserNewContextOptions{})
	const msg = "kept across a restart"
	done := callTool(t, first, "alpha", "echo", map[string]any{"message": msg})
	waitCard(t, page, done.ID, "success")
	if got := invs.waitFinal(t, done.ID); got.Status != "success" {
		t.Fatalf("echo ended %s", got)
	}
	running := callTool(t, first, "alpha", "long_task", map[string]any{"steps": 100, "stepMillis": 5000})
	invs.waitStatus(t, running.ID, "running")
	stop()

	second, _ := p.start(t)
	if second.URL == first.URL {
		t.Logf("the second process listens where the first did: %s", second.URL)
	}
	page = openCards(t, second, playwright.BrowserNewContextOptions{})
	card := feedCard(done.ID)
	waitFor(t, page, card+`[data-status="success"]`, "the stored call's card in the new process's feed")
	if got := text(t, page, card+` [data-testid="invocation-tool"]`); got != "echo" {
		t.Errorf("restored card tool: got %q, want echo", got)
	}
	if got := text(t, page, card+` [data-testid="content-item"][data-type="text"]`); !strings.Contains(got, msg) {
		t.Errorf("restored card result: got %q, want %q", got, msg)
	}

	// The call list's filters live in the page's address: a link that
	// asks for this server's successful calls lists the stored one.
	filtered := newPage(t, playwright.BrowserNewContextOptions{})
	goTo(t, filtered, second.link())
	goTo(t, filtered, second.URL+"/?server=alpha&status=success")
	row := callRow(done.ID)
	waitVisible(t, filtered, row, "the stored call in the filtered call list")
	if got := attr(t, filtered, row, "data-status"); got != "success" {
		t.Errorf("filtered row status: got %q, want success", got)
	}
	if n := count(t, filtered, `#calls-list [data-testid="call-row"]:not([data-status="success"])`); n != 0 {
		t.Errorf("the list filtered to success shows %d other rows", n)
	}

	var list struct {
		Invocations []invocation `json:"invocations"`
	}
	apiGet(t, second, "/api/v1/invocations", &list)
	found := map[string]invocation{}
	for _, v := range list.Invocations {
		found[v.ID] = v
	}
	if v, ok := found[done.ID]; !ok {
		t.Errorf("GET /api/v1/invocations after the restart does not list %s: %v", done.ID, list.Invocations)
	} else if v.Status != "success" || v.Tool != "echo" || !strings.Contains(string(v.Result), msg) {
		t.Errorf("listed after the restart: %s result %s, want success with the message", v, clip(v.Result))
	}
	var one invocation
	apiGet(t, second, "/api/v1/invocations/"+done.ID, &one)
	if one.Status != "success" {
		t.Errorf("GET the invocation after the restart: %s", one)
	}

	// The call that was running when the first process stopped.
	var stale invocation
	apiGet(t, second, "/api/v1/invocations/"+running.ID, &stale)
	t.Logf("the call running at shutdown reads, after the restart: %s", stale)
	if stale.Status == "pending" || stale.Status == "running" {
		t.Errorf("the call running when the process stopped is still %q after a restart: nothing will ever finish it", stale.Status)
	}
	if sel := feedCard(running.ID); count(t, page, sel) == 1 {
		if st := attr(t, page, sel, "data-status"); st == "running" || st == "pending" {
			t.Errorf("its card in the new process's feed says %q, and offers Cancel: %d", st, count(t, page, sel+` [data-testid="invocation-cancel"]`))
		}
	}

	second.waitState(t, "alpha", "connected")
	openDrawer(t, page, "alpha")
	waitFor(t, page, drawerSel("alpha")+` [data-testid="drawer-invocations"] [data-invocation="`+done.ID+`"]`,
		"the stored call in the drawer's recent calls")
}
