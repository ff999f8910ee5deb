//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// T5 and T6: Disable stops the supervisor for good and hides the lists,
// which stay cached; Enable brings them back.
func TestDisableThenEnable(t *testing.T) {
	const name, other = "alpha", "beta"
	in := startWith(t, servers{
		name:  demoStdio(name, map[string]any{"keepAliveSeconds": 5}),
		other: demoStdio(other, map[string]any{"keepAliveSeconds": 5}),
	})
	in.waitState(t, name, "connected")
	before, _ := in.server(t, name)
	if len(before.Capabilities.Tools) == 0 {
		t.Fatalf("API tools of %s: got none, want the demo server's tools", name)
	}
	page := open(t, in)
	waitAllChips(t, page, name, "connected")
	drawer := drawerSel(name)
	openDrawer(t, page, name)
	waitFor(t, page, drawer+` [data-testid="caps-tools"]`, "tools list")
	if got := count(t, page, drawer+` [data-testid="tool-item"]`); got != len(before.Capabilities.Tools) {
		t.Errorf("tool items in the drawer: got %d, want %d", got, len(before.Capabilities.Tools))
	}

	ok := t.Run("T5 disable", func(t *testing.T) {
		mark := in.events.len()
		click(t, page, drawer+` [data-testid="action-disable"]`)
		waitAllChips(t, page, name, "disabled")
		i, st := in.waitStateAfter(t, mark, name, "disabled")
		if st.Phase != "stopped" || st.NextRetryAt != nil {
			t.Errorf("disabled snapshot: got phase %s nextRetryAt %v, want stopped and null", st.Phase, st.NextRetryAt)
		}
		// Three keep-alive probes of the other server (1 s apart) span more
		// than one probe interval and one retry delay of the disabled one.
		j := i
		for range 3 {
			j, _ = in.events.wait(t, j+1, other+" snapshot", func(s status) bool { return s.ServerName == other })
		}
		for _, s := range in.events.since(i + 1)[:j-i] {
			if s.ServerName == name {
				t.Errorf("after disabling: got snapshot %v, want none until the other server's third probe", s)
			}
		}
		d, _ := in.server(t, name)
		if d.Phase != "stopped" || d.NextRetryAt != nil || d.State != "disabled" {
			t.Errorf("API after disabling: got %s/%s nextRetryAt %v, want disabled/stopped, null", d.State, d.Phase, d.NextRetryAt)
		}
		if got, want := len(d.Capabilities.Tools), len(before.Capabilities.Tools); got != want {
			t.Errorf("API cached tools while disabled: got %d, want %d", got, want)
		}
		waitVisible(t, page, drawer+` [data-testid="caps-hidden"]`, "lists hidden while disabled")
		if visible(t, page, drawer+` [data-testid="tool-item"]`) {
			t.Errorf("tool items visible while disabled, want them hidden behind caps-hidden")
		}
		waitVisible(t, page, drawer+` [data-testid="action-enable"]`, "enable offered while disabled")
		if visible(t, page, drawer+` [data-testid="action-disable"]`) {
			t.Errorf("disable button visible while disabled, want only enable")
		}
	})
	if !ok {
		return
	}
	t.Run("T6 enable reloads the lists", func(t *testing.T) {
		mark := in.events.len()
		click(t, page, drawer+` [data-testid="action-enable"]`)
		in.waitStateAfter(t, mark, name, "connected")
		waitAllChips(t, page, name, "connected")
		want := fmt.Sprintf("%d tools", len(before.Capabilities.Tools))
		if got := text(t, page, listChipSel(name)+` [data-testid="chip-badge"]`); got != want {
			t.Errorf("badge after enabling: got %q, want %q", got, want)
		}
		waitVisible(t, page, drawer+` [data-testid="caps-tools"]`, "tools list after enabling")
		waitGone(t, page, drawer+` [data-testid="caps-hidden"]:not([hidden])`, "caps-hidden after enabling")
		if got := count(t, page, drawer+` [data-testid="tool-item"]`); got != len(before.Capabilities.Tools) {
			t.Errorf("tool items after enabling: got %d, want %d", got, len(before.Capabilities.Tools))
		}
	})
}

// T7: a server that always exits is disabled after five failures, and
// shows disabled rather than error.
func TestFiveFailuresAutoDisable(t *testing.T) {
	const name = "broken"
	in := startWith(t, servers{name: failingCommand()})
	page := open(t, in)
	_, st := in.events.wait(t, 0, name+" auto-disabled", func(s status) bool {
		return s.ServerName == name && s.DisabledReason != nil
	})
	if st.State != "disabled" || *st.DisabledReason != "auto" {
		t.Errorf("auto-disable snapshot: got state %s reason %s, want disabled, auto", st.State, *st.DisabledReason)
	}
	failures := 0
	for _, s := range in.events.since(0) {
		if s.ServerName == name && s.State == "error" && s.Phase == "waiting" {
			failures++
		}
	}
	if failures < 4 {
		t.Errorf("retry snapshots before auto-disable: got %d, want 4 (1+2+4+8 s)", failures)
	}
	waitAllChips(t, page, name, "disabled")
	if n := count(t, page, chipSel(name)+`[data-state="error"]`); n != 0 {
		t.Errorf("chips of %s in error after auto-disable: got %d, want 0", name, n)
	}
	if d, _ := in.server(t, name); !strings.Contains(strings.Join(d.Stderr, "\n"), "boom") {
		t.Errorf("API stderr of %s: got %q, want the line boom", name, d.Stderr)
	}
}
