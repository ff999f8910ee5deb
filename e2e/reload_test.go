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

// startWithProject starts switchboard with a user settings file and a
// project whose .mcp.json defines project servers.
func startWithProject(t *testing.T, user, project servers) (*instance, string) {
	t.Helper()
	dir := t.TempDir()
	b, err := json.Marshal(map[string]any{"mcpServers": project})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	writeSettings(t, path, user)
	return run(t, path, "--settings", path, "--project", dir), dir
}

// A project server asks before it runs: the dialog names it, its file
// and its command; Approve connects it and the dialog goes away.
func TestApprovalDialog(t *testing.T) {
	in, dir := startWithProject(t, servers{"mine": demoStdio("mine", nil)}, servers{"proj": demoStdio("proj", nil)})
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	waitAllChips(t, page, "mine", "connected")
	dialog := `[data-testid="approval-dialog"]`
	waitVisible(t, page, dialog, "approval dialog")
	if role := attr(t, page, dialog, "role"); role != "alertdialog" {
		t.Errorf("dialog role %q, want alertdialog", role)
	}
	if got := text(t, page, dialog); !strings.Contains(got, "proj") || !strings.Contains(got, filepath.Join(dir, ".mcp.json")) || !strings.Contains(got, "demo-server") {
		t.Errorf("dialog %q does not name the server, its file and what would run", got)
	}
	if f := focused(t, page); f.TestID != "approval-reject" {
		t.Errorf("focus on %q, want the safe answer (approval-reject)", f.TestID)
	}
	checkAxe(t, page, "approval dialog")
	if got := attr(t, page, listChipSel("proj"), "data-state"); got != "disabled" {
		t.Errorf("pending chip state %q, want disabled (blocked)", got)
	}
	click(t, page, `[data-testid="approval-approve"]`)
	waitAllChips(t, page, "proj", "connected")
	waitGone(t, page, dialog, "the dialog after approval")
}

// A broken save shows the banner with where it is broken, keeps every
// server connected, and a fix clears it.
func TestConfigBanner(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil)})
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	waitAllChips(t, page, "alpha", "connected")
	good, err := os.ReadFile(in.Settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in.Settings, []byte("{\n  \"mcpServers\": {\n    \"alpha\": "), 0o600); err != nil {
		t.Fatal(err)
	}
	banner := `[data-testid="config-banner"]`
	waitVisible(t, page, banner, "settings error banner")
	if got := text(t, page, banner); !strings.Contains(got, in.Settings) || !strings.Contains(got, "3:") {
		t.Errorf("banner %q does not name the file and line", got)
	}
	checkAxe(t, page, "config banner")
	if got := attr(t, page, listChipSel("alpha"), "data-state"); got != "connected" {
		t.Errorf("a broken save changed alpha to %q", got)
	}
	tmp := in.Settings + ".tmp"
	if err := os.WriteFile(tmp, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, in.Settings); err != nil {
		t.Fatal(err)
	}
	waitGone(t, page, banner, "the banner after the fix")
}

// Twenty servers run; editing one server's arguments reconnects that one
// only: no other chip ever leaves connected in the browser, and the others
// keep their connectedAt.
func TestEditOneOfTwentyServers(t *testing.T) {
	cfg := servers{}
	for i := range 20 {
		name := "s" + string(rune('a'+i))
		cfg[name] = demoStdio(name, nil)
	}
	in := startWith(t, cfg)
	for name := range cfg {
		in.waitState(t, name, "connected")
	}
	page := open(t, in)
	for name := range cfg {
		waitAllChips(t, page, name, "connected")
	}
	before := map[string]status{}
	for name := range cfg {
		before[name] = in.waitState(t, name, "connected")
	}
	if _, err := page.Evaluate(`() => {
		window.__changes = [];
		// After every change of the header, note each chip that is not
		// connected: the edited server's, and no other.
		new MutationObserver(() => {
			document.querySelectorAll('#server-list [data-testid="status-chip"]').forEach(chip => {
				const state = chip.getAttribute('data-state');
				if (state !== 'connected') window.__changes.push(chip.getAttribute('data-server') + ':' + state);
			});
		}).observe(document.querySelector('[data-testid="header"]'), {subtree: true, attributes: true, attributeFilter: ['data-state'], childList: true});
	}`); err != nil {
		t.Fatal(err)
	}
	mark := in.events.len()
	cfg["sa"] = demoStdio("sa", map[string]any{"args": []string{"demo-server", "--name", "sa-edited"}})
	tmp := in.Settings + ".tmp"
	writeSettings(t, tmp, cfg)
	if err := os.Rename(tmp, in.Settings); err != nil {
		t.Fatal(err)
	}
	in.waitStateAfter(t, mark, "sa", "connecting")
	in.waitStateAfter(t, mark, "sa", "connected")
	waitAllChips(t, page, "sa", "connected")
	var changes []string
	evalJSON(t, page, `() => JSON.stringify(window.__changes)`, nil, &changes)
	sawEdited := false
	for _, c := range changes {
		sawEdited = sawEdited || c == "sa:connecting"
		if !strings.HasPrefix(c, "sa:") {
			t.Errorf("chip change %q: only sa should have moved", c)
		}
	}
	if !sawEdited {
		t.Errorf("the observer never saw sa reconnect (changes %v): it would miss the others too", changes)
	}
	for name, b := range before {
		if name == "sa" {
			continue
		}
		var now status
		apiGet(t, in, "/api/v1/servers/"+name, &now)
		if now.State != "connected" || now.ConnectedAt == nil || b.ConnectedAt == nil || *now.ConnectedAt != *b.ConnectedAt {
			t.Errorf("%s was touched: %s, connectedAt %v -> %v", name, now.State, b.ConnectedAt, now.ConnectedAt)
		}
	}
}
