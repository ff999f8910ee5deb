//go:build e2e

package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// taskProbe records, per invocation, the task statuses and status
// messages its card in the call list showed, in order (consecutive repeats folded).
// The card's task line is [data-testid="invocation-task"] with the MCP
// task status in data-task-status and the status message as its text.
const taskProbe = `(() => {
	const seen = {};
	window.__taskSeq = seen;
	const look = () => {
		for (const c of document.querySelectorAll('#calls-list [data-testid="call-card"] > [data-testid="invocation-card"]')) {
			const el = c.querySelector('[data-testid="invocation-task"]');
			if (!el) continue;
			const id = c.getAttribute('data-invocation');
			const v = (el.getAttribute('data-task-status') || '') + ' | ' + el.textContent.trim().replace(/\s+/g, ' ');
			const list = seen[id] || (seen[id] = []);
			if (list[list.length - 1] !== v) list.push(v);
		}
	};
	new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})()`

// TestParityResearchTask: server-everything's simulate-research-query
// (execution.taskSupport "required") runs as a task through Switchboard,
// and its card shows the task's status and status message live until it
// completes.
func TestParityResearchTask(t *testing.T) {
	t.Parallel()
	in := startWith(t, servers{"everything": everythingStdio(t)})
	in.waitState(t, "everything", "connected")
	l := followInvocations(t, in)
	page := newPage(t, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	for _, script := range []string{cardProbe, taskProbe} {
		if err := page.AddInitScript(playwright.Script{Content: playwright.String(script)}); err != nil {
			t.Fatal(err)
		}
	}
	goTo(t, page, in.link())
	waitTrue(t, page, `() => window.__sseOpen === true`, nil, "the page stream opens")

	inv := callTool(t, in, "everything", "simulate-research-query", map[string]any{"topic": "parity of MCP gateways"})
	l.waitFinal(t, inv.ID)
	var full invocation
	apiGet(t, in, "/api/v1/invocations/"+inv.ID, &full)
	if full.Status != "success" {
		t.Fatalf("simulate-research-query: got %v result %s, want success (a task that completed)", full, clip(full.Result))
	}
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(full.Result, &r); err != nil || len(r.Content) == 0 || !strings.Contains(r.Content[0].Text, "parity of MCP gateways") {
		t.Errorf("simulate-research-query result: got %s, want the research report on the topic", clip(full.Result))
	}

	waitCard(t, page, inv.ID, "success")
	waitFor(t, page, feedCard(inv.ID)+` [data-testid="invocation-task"][data-task-status="completed"]`, "the card shows the task completed")
	var seq []string
	evalJSON(t, page, `id => JSON.stringify(window.__taskSeq[id] || [])`, inv.ID, &seq)
	t.Logf("task line of the card: %q", seq)
	working := false
	for _, s := range seq {
		if strings.HasPrefix(s, "working | ") && strings.Contains(s, "...") {
			working = true
		}
	}
	if !working {
		t.Errorf("the card never showed the task working with its status message (e.g. %q): %q", "Gathering sources...", seq)
	}
	if len(seq) == 0 || !strings.HasPrefix(seq[len(seq)-1], "completed") {
		t.Errorf("the card's last task status: %q, want completed", seq)
	}
}
