//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestBlockedServerDrawer: the chip of a server that mcp.excluded
// keeps away opens its drawer like any other, which names the settings key
// to edit and offers Remove, and Remove takes the entry out of the file. No
// toast sends the person to a log.
func TestBlockedServerDrawer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	b, err := json.MarshalIndent(map[string]any{
		"mcp":        map[string]any{"excluded": []string{"shut"}},
		"mcpServers": servers{"mine": demoStdio("mine", nil), "shut": demoStdio("shut", nil)},
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	in := run(t, path, "--settings", path)
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	waitAllChips(t, page, "mine", "connected")

	openDrawer(t, page, "shut")
	blocked := drawerSel("shut") + ` [data-testid="drawer-blocked"]`
	waitVisible(t, page, blocked, "the blocked section")
	if got := attr(t, page, blocked, "data-reason"); got != "excluded" {
		t.Errorf("blocked reason: got %q, want excluded", got)
	}
	if got := text(t, page, blocked); !strings.Contains(got, "mcp.excluded") || !strings.Contains(got, path) {
		t.Errorf("blocked section %q does not name mcp.excluded and the file to remove it from", got)
	}
	if n := count(t, page, drawerSel("shut")+` [data-testid="action-restart"]`); n != 0 {
		t.Errorf("a blocked server offers Restart")
	}
	if visible(t, page, `[data-testid="toast-message"]`) {
		t.Errorf("opening the drawer showed a toast: %q", text(t, page, `[data-testid="toast-message"]`))
	}
	checkAxe(t, page, "blocked server drawer")

	click(t, page, drawerSel("shut")+` [data-testid="action-remove"]`)
	waitVisible(t, page, `[data-testid="confirm-dialog"]`, "confirm dialog")
	click(t, page, `[data-testid="confirm-dialog"] [data-testid="confirm-yes"]`)
	waitGone(t, page, listChipSel("shut"), "the chip of the removed server")
	waitHidden(t, page, drawerSel("shut"), "the drawer of the removed server")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(got, &file); err != nil {
		t.Fatalf("settings file after removal is not JSON: %v\n%s", err, got)
	}
	if _, ok := file.MCPServers["shut"]; ok {
		t.Errorf("settings file still has shut:\n%s", got)
	}
	if _, ok := file.MCPServers["mine"]; !ok {
		t.Errorf("settings file lost mine:\n%s", got)
	}
}

// TestPendingServerDrawerApproves: a project server put off with "Decide
// later" can be approved from its drawer, which shows its configuration
// as written; the blocked section goes once it connects.
func TestPendingServerDrawerApproves(t *testing.T) {
	in, _ := startWithProject(t, servers{"mine": demoStdio("mine", nil)}, servers{"proj": demoStdio("proj", nil)})
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("pt-BR")})
	waitAllChips(t, page, "mine", "connected")
	waitVisible(t, page, `[data-testid="approval-dialog"]`, "approval dialog")
	click(t, page, `[data-testid="approval-later"]`)
	waitHidden(t, page, `[data-testid="approval-dialog"]`, "the dialog after Decide later")

	// Decide later gives focus back to the chip of proj: Enter opens its
	// drawer, as a keyboard user would.
	if f := focused(t, page); f.Server != "proj" {
		t.Fatalf("focus after Decide later: got %+v, want the chip of proj", f)
	}
	press(t, page, "Enter")
	waitVisible(t, page, drawerSel("proj"), "open the drawer of proj")
	blocked := drawerSel("proj") + ` [data-testid="drawer-blocked"]`
	waitVisible(t, page, blocked, "the blocked section")
	if got := text(t, page, blocked); !strings.Contains(got, "aprovação") && !strings.Contains(got, "aprove") {
		t.Errorf("blocked section %q does not say, in Portuguese, that it awaits approval", got)
	}
	if got := text(t, page, drawerSel("proj")+` [data-testid="drawer-blocked-command"]`); !strings.Contains(got, binary) {
		t.Errorf("configuration shows command %q, want %q", got, binary)
	}
	checkAxe(t, page, "pending server drawer")

	click(t, page, drawerSel("proj")+` [data-testid="drawer-blocked-approve"]`)
	waitAllChips(t, page, "proj", "connected")
	waitHidden(t, page, blocked, "the blocked section after approval")
	if n := count(t, page, drawerSel("proj")+` [data-testid="action-restart"]`); n != 1 {
		t.Errorf("after approval: got %d Restart buttons, want 1", n)
	}
}
