//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoSwitchesLive: with the demo running, creating the settings file
// it names (directory and all) swaps the demo servers for the file's and
// takes the notice away, without a reload of the page.
func TestDemoSwitchesLive(t *testing.T) {
	in := start(t)
	page := open(t, in)
	waitChip(t, page, "demo-stdio", "connected")
	notice := `[data-testid="demo-notice"]`
	settings := filepath.Join(in.Home, "switchboard", "settings.json")
	if got := text(t, page, notice); !strings.Contains(got, settings) || !strings.Contains(got, "without a restart") {
		t.Errorf("demo notice %q, want it to name %s and say the switch needs no restart", got, settings)
	}

	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	writeSettings(t, settings, servers{"mine": demoStdio("mine", nil)})
	waitAllChips(t, page, "mine", "connected")
	waitGone(t, page, notice, "the demo notice after the settings file was created")
	waitGone(t, page, listChipSel("demo-stdio"), "the demo server's chip")
	if got := count(t, page, `[data-testid="server-row"]`); got != 1 {
		t.Errorf("server rows: got %d, want 1 (the file's server)", got)
	}
}
