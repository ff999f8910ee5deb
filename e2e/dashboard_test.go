//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// TestDemoDashboard: with no settings file the page shows the three demo
// servers and says it is the demo.
func TestDemoDashboard(t *testing.T) {
	in := start(t)
	in.waitState(t, "demo-stdio", "connected")
	in.waitState(t, "demo-http", "connected")

	page := open(t, in)
	waitChip(t, page, "demo-stdio", "connected")
	if got := count(t, page, selHeader+` [data-testid="status-chip"]`); got != 0 {
		t.Errorf("header chips: got %d, want none (chips live in the server list)", got)
	}
	if got := text(t, page, `[data-testid="header-summary"] #summary-all`); !strings.Contains(got, "3 servers") {
		t.Errorf("header summary: got %q, want it to count 3 servers", got)
	}
	if got := count(t, page, `[data-testid="server-row"]`); got != 3 {
		t.Errorf("server rows: got %d, want 3", got)
	}
	if got := text(t, page, `[data-testid="demo-notice"]`); !strings.Contains(got, "Demo mode") {
		t.Errorf("demo notice: got %q, want it to say demo mode", got)
	}
	chip := listChipSel("demo-stdio")
	dot := chip + ` [data-testid="chip-dot"]`
	btn := chip + " " + selChipButton
	tip := chip + " " + selTooltip
	for _, tt := range []struct{ sel, attr, want string }{
		{chip, "role", "status"},
		{chip, "aria-live", "polite"},
		{dot, "role", "img"},
		{dot, "aria-label", "connected"},
		{btn, "aria-haspopup", "dialog"},
		{tip, "role", "tooltip"},
	} {
		if got := attr(t, page, tt.sel, tt.attr); got != tt.want {
			t.Errorf("%s [%s]: got %q, want %q", tt.sel, tt.attr, got, tt.want)
		}
	}
	if got := count(t, page, chip+` .dot[data-testid="chip-dot"]`); got != 1 {
		t.Errorf("chip dot with class dot and data-testid chip-dot: got %d, want 1", got)
	}
	if got := count(t, page, btn+`:is(button)`); got != 1 {
		t.Errorf("chip button: got %d <button> elements, want 1", got)
	}
	describedBy, id := attr(t, page, btn, "aria-describedby"), attr(t, page, tip, "id")
	if id == "" || !strings.Contains(" "+describedBy+" ", " "+id+" ") {
		t.Errorf("chip button aria-describedby %q, want it to name the tooltip's id %q", describedBy, id)
	}
	if got := count(t, page, `[data-testid="live"][sse-connect][hx-ext~="sse"]`); got != 1 {
		t.Errorf(`[data-testid=live] with hx-ext="sse" sse-connect: got %d, want 1`, got)
	}
}
