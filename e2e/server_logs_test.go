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
}
