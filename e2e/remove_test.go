//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"testing"
)

// TestRemoveFromDrawer: Remove asks for confirmation, the row disappears
// live and the entry leaves the settings file, the others stay.
func TestRemoveFromDrawer(t *testing.T) {
	const name, keep = "doomed", "keeper"
	in := startWith(t, servers{name: demoStdio(name, nil), keep: demoStdio(keep, nil)})
	page := open(t, in)
	waitAllChips(t, page, name, "connected")
	other := open(t, in) // a second viewer sees the removal live
	waitAllChips(t, other, name, "connected")

	openDrawer(t, page, name)
	click(t, page, drawerSel(name)+` [data-testid="action-remove"]`)
	waitVisible(t, page, `[data-testid="confirm-dialog"]`, "confirm dialog")
	if role := attr(t, page, `[data-testid="confirm-dialog"]`, "role"); role != "alertdialog" {
		t.Errorf("confirm dialog role: got %q, want alertdialog", role)
	}
	if _, ok := in.server(t, name); !ok {
		t.Fatalf("%s removed before confirming", name)
	}
	mark := in.events.len()
	click(t, page, `[data-testid="confirm-dialog"] [data-testid="confirm-yes"]`)
	in.events.wait(t, mark, name+" disposed", func(s status) bool { return s.ServerName == name && s.Phase == "disposed" })
	waitGone(t, page, rowSel(name), "row removed")
	waitGone(t, page, listChipSel(name), "header chip removed")
	waitHidden(t, page, drawerSel(name), "drawer of the removed server")
	waitGone(t, other, rowSel(name), "row removed on another page")
	waitGone(t, other, chipSel(name), "chips removed on another page")
	if n := count(t, page, rowSel(keep)); n != 1 {
		t.Errorf("rows of %s: got %d, want 1", keep, n)
	}

	if _, ok := in.server(t, name); ok {
		t.Errorf("API GET %s after removal: got 200, want 404", name)
	}
	b, err := os.ReadFile(in.Settings)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatalf("settings file after removal is not JSON: %v\n%s", err, b)
	}
	if _, ok := file.MCPServers[name]; ok {
		t.Errorf("settings file still has %s:\n%s", name, b)
	}
	if _, ok := file.MCPServers[keep]; !ok {
		t.Errorf("settings file lost %s:\n%s", keep, b)
	}
}
