//go:build e2e

package e2e

import (
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestTaskRunsFromTheDashboard runs server-everything's
// simulate-research-query, a tool that only runs as a task (taskSupport
// "required"), from its Run button: the card shows the task working with
// the server's stage messages, then the task completed and the report.
func TestTaskRunsFromTheDashboard(t *testing.T) {
	in := startWith(t, servers{"everything": everythingStdio(t)})
	in.waitState(t, "everything", "connected")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	waitChip(t, page, "everything", "connected")
	openDrawer(t, page, "everything")
	if err := page.Locator(runButton("everything", "simulate-research-query")).Click(); err != nil {
		t.Fatalf("click Run: %v", err)
	}
	waitVisible(t, page, selRunForm+`[role="dialog"]`, "the run form opens")
	if err := page.Locator(runField("topic") + " input").Fill("tide pools"); err != nil {
		t.Fatal(err)
	}
	if err := page.Locator(selRunForm + ` [data-testid="run-submit"]`).Click(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, selRunForm+` [data-testid="run-card-slot"] [data-testid="invocation-card"]`, "the call's card under the form")
	press(t, page, "Escape")
	waitGone(t, page, selRunForm, "Escape closes the form")
	press(t, page, "Escape")

	const card = `#calls-list [data-testid="call-card"] > [data-testid="invocation-card"]`
	working := card + `[data-status="running"] [data-testid="invocation-task"][data-task-status="working"][role="status"]`
	waitFor(t, page, working+` [data-testid="invocation-task-message"]`, "the card shows the task working with the server's message")
	if got := text(t, page, working+` [data-testid="invocation-task-status"]`); got != "Task: working" {
		t.Errorf("task status: got %q, want Task: working", got)
	}
	if msg := text(t, page, working+` [data-testid="invocation-task-message"]`); !strings.HasSuffix(msg, "...") {
		t.Errorf("task message: got %q, want one of the server's stages", msg)
	}

	done := card + `[data-status="success"]`
	waitFor(t, page, done+` [data-testid="invocation-task"][data-task-status="completed"]`, "the card shows the task completed")
	if got := text(t, page, done+` [data-testid="invocation-task-status"]`); got != "Task: completed" {
		t.Errorf("task status: got %q, want Task: completed", got)
	}
	if got := text(t, page, done+` [data-testid="invocation-result"]`); !strings.Contains(got, "Research Report: tide pools") {
		t.Errorf("result: got %.200q, want the research report", got)
	}
}
