//go:build e2e

package e2e

import (
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestLongPressShowsTooltip: on a touch screen, holding a chip shows its
// tooltip instead of opening the drawer; a tap elsewhere hides it.
func TestLongPressShowsTooltip(t *testing.T) {
	const name = "alpha"
	in := startWith(t, servers{name: demoStdio(name, nil)})
	page := openWith(t, in, playwright.BrowserNewContextOptions{
		Locale: playwright.String("en-US"), HasTouch: playwright.Bool(true), IsMobile: playwright.Bool(true),
		Viewport: &playwright.Size{Width: 390, Height: 800}})
	waitAllChips(t, page, name, "connected")
	btn := page.Locator(listChipSel(name) + " " + selChipButton)
	tip := listChipSel(name) + " " + selTooltip
	if visible(t, page, tip) {
		t.Fatalf("tooltip visible before any touch")
	}
	if _, err := page.Evaluate(`() => { window.__requests = 0; document.addEventListener('htmx:beforeRequest', () => window.__requests++); }`); err != nil {
		t.Fatal(err)
	}
	box, err := btn.BoundingBox()
	if err != nil {
		t.Fatal(err)
	}
	touch := map[string]any{"pointerType": "touch", "isPrimary": true, "bubbles": true, "button": 0,
		"clientX": box.X + box.Width/2, "clientY": box.Y + box.Height/2}
	if err := btn.DispatchEvent("pointerdown", touch); err != nil {
		t.Fatal(err)
	}
	waitVisible(t, page, tip, "tooltip after a long press")
	for _, ev := range []string{"pointerup", "click"} {
		if err := btn.DispatchEvent(ev, touch); err != nil {
			t.Fatal(err)
		}
	}
	var requests int
	evalJSON(t, page, `() => JSON.stringify(window.__requests)`, nil, &requests)
	if requests != 0 {
		t.Errorf("htmx requests after the long press ended: got %d, want 0 (the drawer must not open)", requests)
	}
	if err := page.Locator(`[data-testid="server-list"]`).DispatchEvent("pointerdown", map[string]any{"pointerType": "touch", "bubbles": true}); err != nil {
		t.Fatal(err)
	}
	waitHidden(t, page, tip, "tooltip after a tap elsewhere")
}
