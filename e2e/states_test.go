//go:build e2e

package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// T1: a server that takes its time to answer shows connecting, then
// connected with its counts in the badge and the tooltip.
func TestAttachConnectingThenConnected(t *testing.T) {
	g := newGate(t, demoHTTP(t, "slow"))
	in := startWith(t, servers{"slow": {"url": g.URL, "connectTimeoutSeconds": 120, "keepAliveSeconds": 5}})
	page := open(t, in)

	if c := chipWhen(t, page, "slow", "connecting"); c.Badge == "" || c.Tip["tooltip-state"].Text == "" {
		t.Errorf("connecting chip: got badge %q, tooltip state %q; want both in words", c.Badge, c.Tip["tooltip-state"].Text)
	}
	if got := count(t, page, `[data-testid="demo-notice"]`); got != 0 {
		t.Errorf("demo notice with a settings file: got %d, want none", got)
	}
	g.release()
	c := chipWhen(t, page, "slow", "connected")
	waitAllChips(t, page, "slow", "connected")

	st, _ := in.server(t, "slow")
	if st.ToolCount == 0 {
		t.Fatalf("API toolCount: got 0, want the demo server's tools")
	}
	wantBadge := fmt.Sprintf("%d tools", st.ToolCount)
	for _, sel := range []string{listChipSel("slow"), rowSel("slow") + ` [data-testid="status-chip"]`} {
		if got := text(t, page, sel+` [data-testid="chip-badge"]`); got != wantBadge {
			t.Errorf("%s badge: got %q, want %q", sel, got, wantBadge)
		}
	}
	counts := c.Tip["tooltip-counts"].Text
	for what, n := range map[string]int{"tools": st.ToolCount, "resources": st.ResourceCount, "prompts": st.PromptCount} {
		if !regexp.MustCompile(`\b` + strconv.Itoa(n) + `\b`).MatchString(counts) {
			t.Errorf("tooltip counts %q: want the %d %s", counts, n, what)
		}
	}
	if c.Dot != "connected" {
		t.Errorf("dot aria-label: got %q, want connected", c.Dot)
	}
	if st.LastSyncAt == nil {
		t.Errorf("API lastSyncAt: got null after connecting")
	} else if got := c.Tip["tooltip-last-sync"].Time; got == nil || *got != strconv.FormatInt(*st.LastSyncAt, 10) {
		t.Errorf("tooltip last-sync data-time: got %v, want %d (the API's lastSyncAt)", deref(got), *st.LastSyncAt)
	}
	waitFor(t, page, listChipSel("slow")+` [data-testid="tooltip-latency"]`, "tooltip latency after the first keep-alive probe")

	if err := page.Locator(listChipSel("slow") + " " + selChipButton).Hover(); err != nil {
		t.Fatalf("hover chip: %v", err)
	}
	waitVisible(t, page, listChipSel("slow")+" "+selTooltip, "tooltip on hover")
}

// T2 and T3: the server dies, the chip turns red with the error in the
// tooltip; it comes back on the same port, the supervisor's retry
// reconnects, and no trace of the error is left anywhere on the page.
func TestOutageThenAutoRetry(t *testing.T) {
	const name = "everything"
	ev := startEverything(t)
	in := startWith(t, servers{name: {"url": ev.URL(), "keepAliveSeconds": 5}})
	in.waitState(t, name, "connected")
	page := open(t, in)
	waitAllChips(t, page, name, "connected")
	openDrawer(t, page, name) // its chip must be cleared too

	mark := in.events.len()
	ev.kill()
	ok := t.Run("T2 outage shows the error", func(t *testing.T) {
		c := chipWhen(t, page, name, "error")
		for _, row := range []string{"tooltip-error", "tooltip-category", "tooltip-last-error-at", "tooltip-retry"} {
			if c.Tip[row].Text == "" {
				t.Errorf("tooltip %s in error: got %q, want text (tooltip: %+v)", row, c.Tip[row].Text, c.Tip)
			}
		}
		if c.Tip["tooltip-last-error-at"].Time == nil {
			t.Errorf("tooltip-last-error-at: no data-time")
		}
		if c.Dot != "error" {
			t.Errorf("dot aria-label in error: got %q, want error", c.Dot)
		}
		_, st := in.waitStateAfter(t, mark, name, "error")
		if st.Error == nil || *st.Error == "" {
			t.Errorf("API error snapshot %v has no error text", st)
		}
		// The tooltip shows the (redacted) message the API reported.
		var reported []string
		for _, s := range in.events.since(mark) {
			if s.ServerName == name && s.Error != nil {
				reported = append(reported, squash(*s.Error))
			}
		}
		got := c.Tip["tooltip-error"].Text
		if !slices.ContainsFunc(reported, func(e string) bool { return strings.Contains(got, e) }) {
			t.Errorf("tooltip error: got %q, want it to show one of the API's errors %q", got, reported)
		}
		// Each failed attempt shows a countdown to the next one.
		waitFor(t, page, listChipSel(name)+" "+selTooltip+` [data-testid="tooltip-retry"][data-deadline]`, "retry countdown")
	})
	if !ok {
		return
	}
	t.Run("T3 auto-retry clears every trace", func(t *testing.T) {
		mark := in.events.len()
		ev.start()
		_, st := in.waitStateAfter(t, mark, name, "connected")
		if st.Error != nil {
			t.Errorf("first connected snapshot after the outage: error %q, want null", *st.Error)
		}
		waitAllChips(t, page, name, "connected")
		leftovers := map[string]int{}
		owner := fmt.Sprintf(`[data-server=%q]`, name) // chips, row, drawer and its parts
		// The drawer's uptime bars are history: the outage stays there.
		live := `[data-state="error"]:not([data-testid="uptime-bar"])`
		for _, sel := range []string{
			owner + live,
			owner + ` ` + live,
			owner + ` [data-testid="tooltip-error"]`,
			owner + ` [data-testid="tooltip-category"]`,
			owner + ` [data-testid="tooltip-last-error-at"]`,
			owner + ` [data-testid="tooltip-retry"]`,
		} {
			if n := count(t, page, sel); n != 0 {
				leftovers[sel] = n
			}
		}
		if len(leftovers) > 0 {
			t.Errorf("after reconnecting, stale error elements remain: %v", leftovers)
		}
		var labels []string
		evalJSON(t, page, `sel => JSON.stringify([...document.querySelectorAll(sel)].map(d => d.getAttribute('aria-label')))`,
			fmt.Sprintf(`[data-server=%q] .dot`, name), &labels)
		if len(labels) < 2 {
			t.Errorf("dots of %s: got %d, want one each in the row and the drawer", name, len(labels))
		}
		for _, l := range labels {
			if l != "connected" {
				t.Errorf("dot aria-label after reconnecting: got %q, want connected (all: %q)", l, labels)
			}
		}
	})
}

// T4: Restart in the drawer takes the server through connecting back to
// connected, in the header and in the drawer's own header.
func TestRestartFromDrawer(t *testing.T) {
	const name = "gated"
	g := newGate(t, demoHTTP(t, name))
	g.release()
	in := startWith(t, servers{name: {"url": g.URL, "connectTimeoutSeconds": 120}})
	page := open(t, in)
	waitAllChips(t, page, name, "connected")
	openDrawer(t, page, name)

	g.hold()
	mark := in.events.len()
	click(t, page, drawerSel(name)+` [data-testid="action-restart"]`)
	waitChip(t, page, name, "connecting")
	in.waitStateAfter(t, mark, name, "connecting")
	drawerChip := drawerSel(name) + ` [data-testid="drawer-header"] ` + chipSel(name)
	if count(t, page, drawerChip) == 0 {
		t.Errorf("drawer header: no %s, want the server's chip in it (contract: name, chip, target, transport, protocol)", drawerChip)
	} else {
		waitFor(t, page, drawerChip+`[data-state="connecting"]`, "drawer header chip connecting")
	}
	g.release()
	waitAllChips(t, page, name, "connected")
	if !visible(t, page, drawerSel(name)) {
		t.Errorf("drawer closed by the restart, want it to stay open")
	}
}

// stateRecorder notes, on every DOM change, the state of server's header
// chip and its tooltip's error text, so a test can check a state the page
// passed through without catching it in the act.
const stateRecorder = `server => {
	const chip = '#server-list [data-testid="status-chip"][data-server="' + server + '"]';
	const seen = window.__seen = [];
	const note = () => {
		const c = document.querySelector(chip);
		if (!c) return;
		const err = c.querySelector('[data-testid="tooltip-error"]');
		const s = {state: c.getAttribute('data-state'), error: err ? err.textContent.trim() : ''};
		const last = seen[seen.length - 1];
		if (!last || last.state !== s.state || last.error !== s.error) seen.push(s);
	};
	note();
	new MutationObserver(note).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
	return JSON.stringify(seen.length);
}`

// T2 for a stdio server: SIGKILL its process (found through
// /proc/<pid>/task/*/children); the chip turns red with the exit in the
// tooltip, and the retry brings it back without the error.
func TestKilledChildIsRetried(t *testing.T) {
	const name = "child"
	in := startWith(t, servers{name: demoStdio(name, nil)})
	in.waitState(t, name, "connected")
	page := open(t, in)
	waitAllChips(t, page, name, "connected")
	var n int
	evalJSON(t, page, stateRecorder, name, &n)

	pid := in.childPid(t, name)
	mark := in.events.len()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %s (pid %d): %v", name, pid, err)
	}
	_, st := in.waitStateAfter(t, mark, name, "error")
	if st.ErrorCategory == nil || *st.ErrorCategory != "exited" {
		t.Errorf("API error category: got %v, want exited", st.ErrorCategory)
	}
	in.waitStateAfter(t, mark, name, "connected")
	waitAllChips(t, page, name, "connected")

	var seen []struct{ State, Error string }
	evalJSON(t, page, `() => JSON.stringify(window.__seen)`, nil, &seen)
	sawError := false
	for _, s := range seen {
		if s.State == "error" {
			sawError = true
			if s.Error == "" {
				t.Errorf("header chip in error with no tooltip error text; states seen: %+v", seen)
			}
		}
	}
	if !sawError {
		t.Errorf("header chip never showed error; states seen: %+v", seen)
	}
	if last := seen[len(seen)-1]; last.State != "connected" || last.Error != "" {
		t.Errorf("header chip at the end: got %+v, want connected with no error text", last)
	}
	if got := count(t, page, fmt.Sprintf(`[data-server=%q] [data-testid="tooltip-error"]`, name)); got != 0 {
		t.Errorf("tooltip-error elements of %s after reconnecting: got %d, want 0", name, got)
	}
}
