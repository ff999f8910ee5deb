//go:build e2e

package e2e

import (
	"slices"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// press sends one key to the focused element.
func press(t *testing.T, page playwright.Page, key string) {
	t.Helper()
	if err := page.Keyboard().Press(key); err != nil {
		t.Fatalf("press %s: %v", key, err)
	}
}

// tabTo presses Tab (or Shift+Tab) until the focused element matches, at
// most limit times, and returns the elements focused on the way.
func tabTo(t *testing.T, page playwright.Page, key string, limit int, what string, match func(active) bool) []active {
	t.Helper()
	var path []active
	for range limit {
		press(t, page, key)
		a := focused(t, page)
		path = append(path, a)
		if match(a) {
			return path
		}
	}
	t.Fatalf("%s: not reached in %d presses of %s; focus went %v", what, limit, key, path)
	return nil
}

// inDrawerTestID matches the element with testid inside the drawer.
func inDrawerTestID(testid string) func(active) bool {
	return func(a active) bool { return a.InDrawer && a.TestID == testid }
}

// TestKeyboardOnly drives the chips, the modal drawer, every action and
// the confirm dialog with the keyboard alone.
func TestKeyboardOnly(t *testing.T) {
	const name = "alpha"
	in := startWith(t, servers{
		name:    demoStdio(name, nil),
		"beta":  demoStdio("beta", nil),
		"gamma": missingCommand(),
	})
	// Below 1200 px the drawer is a modal dialog, which keeps Tab inside;
	// from 1200 px up it docks beside the page and does not
	// (TestWorkbenchDrawerDocking).
	page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US"),
		Viewport: &playwright.Size{Width: 1100, Height: 800}})
	waitAllChips(t, page, name, "connected")
	waitAllChips(t, page, "beta", "connected")
	waitAllChips(t, page, "gamma", "error")

	// Every chip button, one per row (the header has none), is in the tab order.
	var buttons []string
	evalJSON(t, page, `sel => JSON.stringify([...document.querySelectorAll(sel)].map(b =>
		(b.closest('[data-testid="header"]') ? 'header:' : 'list:') + b.closest('[data-server]').dataset.server))`,
		selChipButton, &buttons)
	if len(buttons) != 3 {
		t.Errorf("chip buttons: got %v, want 3 (one row for each of three servers)", buttons)
	}
	reached := map[string]bool{}
	tabTo(t, page, "Tab", 80, "every chip button", func(a active) bool {
		if a.TestID == selChipButtonID {
			where := "list:"
			if a.InHeader {
				where = "header:"
			}
			reached[where+a.Server] = true
		}
		return len(reached) == len(buttons)
	})

	// Enter on the list chip opens the drawer with focus inside.
	tabTo(t, page, "Tab", 80, "list chip button of "+name, func(a active) bool {
		return a.TestID == selChipButtonID && a.InList && a.Server == name
	})
	var outline struct {
		Style string  `json:"style"`
		Width float64 `json:"width"`
	}
	evalJSON(t, page, `() => { const s = getComputedStyle(document.activeElement);
		return JSON.stringify({style: s.outlineStyle, width: parseFloat(s.outlineWidth) || 0}); }`, nil, &outline)
	if outline.Style == "none" || outline.Width < 2 {
		t.Errorf("focused chip button outline: got %s %vpx, want a visible focus ring of at least 2px", outline.Style, outline.Width)
	}
	press(t, page, "Enter")
	waitVisible(t, page, drawerSel(name), "Enter opens the drawer")
	if inert := count(t, page, `[inert] `+drawerSel(name)); inert != 0 {
		t.Fatalf("open drawer of %s: it sits inside an inert element, so it takes no focus and no clicks", name)
	}
	waitTrue(t, page, `sel => document.querySelector(sel)?.contains(document.activeElement)`, drawerSel(name), "focus moves into the drawer")

	// Tab and Shift+Tab stay inside, and reach every control.
	var n int
	evalJSON(t, page, `sel => JSON.stringify([...document.querySelector(sel).querySelectorAll(
		'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')]
		.filter(el => !el.disabled && el.getClientRects().length > 0).length)`, drawerSel(name), &n)
	seen := map[string]bool{}
	for _, key := range []string{"Tab", "Shift+Tab"} {
		for i := range n + 2 {
			press(t, page, key)
			a := focused(t, page)
			if !a.InDrawer {
				t.Fatalf("%s %d of %d (drawer has %d tabbable elements): focus left the drawer to %+v", key, i+1, n+2, n, a)
			}
			seen[a.TestID] = true
		}
	}
	for _, id := range []string{"drawer-close", "action-restart", "action-disable", "action-remove",
		"setting-auto-reconnect", "setting-keepalive", "settings-save"} {
		if !seen[id] {
			t.Errorf("Tab cycle in the drawer never reached %s; reached %v", id, keys(seen))
		}
	}

	// Escape closes it and gives focus back to the chip button.
	press(t, page, "Escape")
	waitHidden(t, page, drawerSel(name), "Escape closes the drawer")
	if a := focused(t, page); a.TestID != selChipButtonID || !a.InList || a.Server != name {
		t.Errorf("focus after Escape: got %+v, want the list chip button of %s", a, name)
	}

	// The chip button's tooltip shows on keyboard focus; Escape dismisses
	// it without moving focus (WCAG 1.4.13).
	waitVisible(t, page, listChipSel(name)+" "+selTooltip, "tooltip on keyboard focus")
	press(t, page, "Escape")
	waitHidden(t, page, listChipSel(name)+" "+selTooltip, "Escape dismisses the tooltip")
	if a := focused(t, page); a.TestID != selChipButtonID || a.Server != name {
		t.Errorf("focus after dismissing the tooltip: got %+v, want still the chip button", a)
	}

	// Space opens it too; each action works from the keyboard.
	press(t, page, " ")
	waitVisible(t, page, drawerSel(name), "Space opens the drawer")
	waitTrue(t, page, `sel => document.querySelector(sel)?.contains(document.activeElement)`, drawerSel(name), "focus moves into the drawer")

	tabTo(t, page, "Tab", n+2, "action-restart", inDrawerTestID("action-restart"))
	mark := in.events.len()
	before := in.waitState(t, name, "connected").ConnectedAt
	press(t, page, " ")
	in.events.wait(t, mark, name+" connected again", func(s status) bool {
		return s.ServerName == name && s.State == "connected" && s.ConnectedAt != nil && (before == nil || *s.ConnectedAt != *before)
	})
	waitAllChips(t, page, name, "connected")
	focusStaysInDrawer(t, page, "after Restart")

	tabTo(t, page, "Tab", n+2, "action-disable", inDrawerTestID("action-disable"))
	press(t, page, "Enter")
	waitAllChips(t, page, name, "disabled")
	focusStaysInDrawer(t, page, "after Disable")
	tabTo(t, page, "Tab", n+2, "action-enable", inDrawerTestID("action-enable"))
	press(t, page, "Enter")
	waitAllChips(t, page, name, "connected")
	focusStaysInDrawer(t, page, "after Enable")

	// Remove asks first; No keeps the server, Yes removes it.
	tabTo(t, page, "Tab", n+2, "action-remove", inDrawerTestID("action-remove"))
	press(t, page, "Enter")
	waitVisible(t, page, `[data-testid="confirm-dialog"][role="alertdialog"]`, "confirm dialog")
	waitTrue(t, page, `() => document.querySelector('[data-testid="confirm-dialog"]')?.contains(document.activeElement)`, nil, "focus moves into the confirm dialog")
	tabTo(t, page, "Tab", 6, "confirm-no", func(a active) bool { return a.TestID == "confirm-no" })
	press(t, page, "Enter")
	waitHidden(t, page, `[data-testid="confirm-dialog"]`, "No closes the confirm dialog")
	if a := focused(t, page); a.TestID != "action-remove" {
		t.Errorf("focus after No: got %+v, want back on action-remove", a)
	}
	if _, ok := in.server(t, name); !ok {
		t.Fatalf("server %s is gone after answering No", name)
	}
	tabTo(t, page, "Tab", n+2, "action-remove", inDrawerTestID("action-remove"))
	press(t, page, " ")
	waitVisible(t, page, `[data-testid="confirm-dialog"]`, "confirm dialog again")
	tabTo(t, page, "Tab", 6, "confirm-yes", func(a active) bool { return a.TestID == "confirm-yes" })
	press(t, page, "Enter")
	waitGone(t, page, rowSel(name), "removed row")
	waitGone(t, page, listChipSel(name), "removed header chip")
	if a := focused(t, page); a.Tag == "body" {
		t.Errorf("focus after removing %s: got lost on <body>, want a defined place (e.g. the next chip button)", name)
	}
}

// focusStaysInDrawer checks that re-rendering after an action keeps focus
// inside the drawer.
func focusStaysInDrawer(t *testing.T, page playwright.Page, when string) {
	t.Helper()
	if a := focused(t, page); !a.InDrawer {
		t.Errorf("focus %s: got %+v, want inside the drawer", when, a)
	}
}

// selChipButtonID is the data-testid of a chip's button.
const selChipButtonID = "chip-button"

// keys returns m's keys, sorted.
func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
