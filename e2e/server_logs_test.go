//go:build e2e

package e2e

import (
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestDrawerServerLogs: a person picks a log level in the drawer by
// keyboard, the server's log messages then appear in the drawer without a
// reload, escaped, and the section passes axe.
func TestDrawerServerLogs(t *testing.T) {
	const name = "demo"
	in := demoOnly(t, name)
	page := open(t, in)
	waitAllChips(t, page, name, "connected")
	openDrawer(t, page, name)
	drawer := drawerSel(name)
	waitFor(t, page, drawer+` [data-testid="logs-empty"]`, "the empty log note")

	sel := page.Locator(drawer + ` [data-testid="log-level"]`)
	if err := sel.Focus(); err != nil {
		t.Fatalf("focus the level selector: %v", err)
	}
	if _, err := sel.SelectOption(playwright.SelectOptionValues{Values: &[]string{"info"}}); err != nil {
		t.Fatalf("choose info: %v", err)
	}
	if err := page.Keyboard().Press("Tab"); err != nil {
		t.Fatal(err)
	}
	if err := page.Keyboard().Press("Enter"); err != nil { // the Apply button
		t.Fatal(err)
	}
	waitTrue(t, page, `sel => (document.querySelector(sel)?.textContent || '').includes('Info')`,
		drawer+` [data-testid="log-level-status"]`, "the level marked saved")

	callTool(t, in, name, "log_message", map[string]any{"message": "cache <b>warm</b>", "level": "notice", "logger": "cache"})
	entry := drawer + ` [data-testid="log-entry"]`
	waitFor(t, page, entry, "the log message in the drawer, live")
	if got := text(t, page, entry+` [data-testid="log-data"]`); got != "cache <b>warm</b>" {
		t.Errorf("log data: got %q, want the message as text", got)
	}
	if got := squash(text(t, page, entry+` [data-testid="log-level-word"]`)); !strings.EqualFold(got, "notice") {
		t.Errorf("level word: got %q, want Notice", got)
	}
	if count(t, page, drawer+` .log-data b`) != 0 {
		t.Error("the server's markup became elements, want it escaped")
	}
	checkAxe(t, page, "drawer with log messages")

	// Later messages arrive as new entries at the top of the list (only
	// the new ones travel), newest first, each once.
	if _, err := page.Evaluate(`sel => { document.querySelector(sel).dataset.marked = '1'; }`, entry); err != nil {
		t.Fatal(err)
	}
	// A call starts and returns at once: wait for each to end, so the
	// server logs them in this order.
	calls := followInvocations(t, in)
	calls.waitFinal(t, callTool(t, in, name, "log_message", map[string]any{"message": "second", "level": "warning"}).ID)
	calls.waitFinal(t, callTool(t, in, name, "log_message", map[string]any{"message": "third", "level": "error"}).ID)
	waitTrue(t, page, `sel => document.querySelectorAll(sel).length === 3`, entry, "three log entries")
	got, err := page.Evaluate(`sel => [...document.querySelectorAll(sel)].map(e => e.querySelector('[data-testid="log-data"]').textContent).join(',')`, entry)
	if err != nil {
		t.Fatal(err)
	}
	if got != "third,second,cache <b>warm</b>" {
		t.Errorf("entries: got %q, want newest first, each once", got)
	}
	if count(t, page, entry+`[data-marked]`) != 1 {
		t.Error("the first entry was replaced, want the new ones added beside it")
	}
}

// TestLogListKeepsEachEntryOnceWithinItsCap: logs.js, after an appended
// burst, drops an entry the list held already (a drawer opened while the
// burst was on its way), puts the entries newest first, and trims the
// oldest beyond the list's data-cap.
func TestLogListKeepsEachEntryOnceWithinItsCap(t *testing.T) {
	in := demoOnly(t, "demo")
	page := open(t, in)
	// logs.js comes with the drawer's scripts, which the first drawer loads.
	openDrawer(t, page, "demo")
	got, err := page.Evaluate(`async () => {
		const ol = document.createElement('ol');
		ol.className = 'log-list';
		ol.dataset.cap = '3';
		for (const s of [6, 4, 5, 4, 3, 2]) {
			const li = document.createElement('li');
			li.dataset.seq = String(s);
			ol.append(li);
		}
		document.body.append(ol);
		ol.firstChild.dispatchEvent(new CustomEvent('htmx:oobAfterSwap', {bubbles: true, detail: {target: ol}}));
		await Promise.resolve();
		await Promise.resolve();
		const seqs = [...ol.children].map(li => li.dataset.seq).join(',');
		ol.remove();
		return seqs;
	}`)
	if err != nil {
		t.Fatal(err)
	}
	if got != "6,5,4" {
		t.Errorf("list: got %v, want 6,5,4", got)
	}
}
