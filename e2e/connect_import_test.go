//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConnectPageImportsCursorsServers: Cursor's config under the
// instance's HOME lists a server of its own and one whose name
// Switchboard already has. The Connect page lists both (the second
// unchecked and said so), and, driven by the keyboard, confirms and
// writes Switchboard's entry while moving the first into the settings,
// where the hot reload starts it; the result is announced in the status
// region, and the undo puts everything back. Axe-clean in light and dark
// at each step.
func TestConnectPageImportsCursorsServers(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
			in.waitState(t, "alpha", "connected")
			cursor := filepath.Join(in.Home, ".cursor", "mcp.json")
			original, err := json.MarshalIndent(map[string]any{"mcpServers": servers{
				"beta":  demoStdio("beta", nil),
				"alpha": {"command": "some-other-alpha"},
			}}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(cursor), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cursor, original, 0o600); err != nil {
				t.Fatal(err)
			}

			page := open(t, in)
			setPreference(t, page, "theme", theme)
			click(t, page, `[data-testid="header"] [data-testid="connect-link"]`)
			panel := `[data-testid="connect-file"][data-client="cursor"]`
			waitVisible(t, page, panel+` [data-testid="connect-file-server"][data-name="beta"]`, "beta in Cursor's panel")
			waitFor(t, page, fmt.Sprintf(`html[data-theme=%q]`, theme), "theme kept")
			if on, _ := page.Locator(panel + ` [data-name="beta"] input[name="import"]`).IsChecked(); !on {
				t.Errorf("beta is not checked for import")
			}
			if on, _ := page.Locator(panel + ` [data-name="alpha"] input[name="import"]`).IsChecked(); on {
				t.Errorf("alpha, which Switchboard already has, is checked for import")
			}
			waitVisible(t, page, panel+` [data-name="alpha"] [data-testid="connect-file-taken"]`, "alpha shown as taken")
			checkAxe(t, page, "connect file panel")

			// The keyboard alone: focus the review button, Enter; the
			// confirmation takes the focus, Enter writes.
			if err := page.Locator(panel + ` [data-testid="connect-file-review"]`).Focus(); err != nil {
				t.Fatal(err)
			}
			if err := page.Keyboard().Press("Enter"); err != nil {
				t.Fatal(err)
			}
			waitVisible(t, page, panel+` [data-testid="connect-file-confirm"]`, "the confirmation")
			waitTrue(t, page, `sel => document.activeElement?.matches(sel)`, panel+` [data-testid="connect-file-yes"]`, "focus on the confirm button")
			checkAxe(t, page, "connect file confirmation")
			if b, _ := os.ReadFile(cursor); string(b) != string(original) {
				t.Fatalf("the file changed before the confirmation")
			}
			if err := page.Keyboard().Press("Enter"); err != nil {
				t.Fatal(err)
			}
			status := `#connect-file-status-cursor[role="status"]`
			waitFor(t, page, status+` [data-note="ConnectFileAdded"]:has-text("beta")`, "the import announced")
			waitFor(t, page, status+` [data-note="ConnectFileWrote"]`, "the write announced")
			waitFor(t, page, `[data-testid="connect-token-row"][data-name="cursor"]`, "the new token in the list")
			in.waitState(t, "beta", "connected")
			checkAxe(t, page, "connect file written")

			var client struct {
				MCPServers map[string]json.RawMessage `json:"mcpServers"`
			}
			b, _ := os.ReadFile(cursor)
			if err := json.Unmarshal(b, &client); err != nil || client.MCPServers["sb"] == nil || client.MCPServers["beta"] != nil || client.MCPServers["alpha"] == nil {
				t.Errorf("Cursor's file after the write (want sb and alpha, no beta):\n%s", b)
			}
			if !strings.Contains(string(client.MCPServers["sb"]), in.URL+"/mcp") {
				t.Errorf("Switchboard's entry does not point at %s/mcp:\n%s", in.URL, b)
			}
			waitFor(t, page, panel+` [data-testid="connect-file-undo"]`, "the undo button")

			click(t, page, panel+` [data-testid="connect-file-undo"]`)
			waitVisible(t, page, panel+` [data-testid="connect-file-confirm"]`, "the undo confirmation")
			checkAxe(t, page, "connect undo confirmation")
			click(t, page, panel+` [data-testid="connect-file-yes"]`)
			waitFor(t, page, status+` [data-note="ConnectFileRemoved"]:has-text("beta")`, "the undo announced")
			if b, _ := os.ReadFile(cursor); string(b) != string(original) {
				t.Errorf("Cursor's file after the undo:\n%s", b)
			}
			if b, _ := os.ReadFile(in.Settings); strings.Contains(string(b), `"beta"`) {
				t.Errorf("settings after the undo still hold beta:\n%s", b)
			}
			checkAxe(t, page, "connect undone")
		})
	}
}
