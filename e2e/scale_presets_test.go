//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// scaleDockedRun runs a tool from the docked drawer at 1400 px and checks
// that its card appears in the drawer, under the form that started it, and
// that nothing of the page sits behind the drawer. The page stays as it
// is for scalePresets.
func scaleDockedRun(t *testing.T, page playwright.Page) {
	scaleOpenDrawer(t, page, scaleDrawerServer)
	drawer := drawerSel(scaleDrawerServer)
	click(t, page, runButton(scaleDrawerServer, "markdown_report"))
	waitVisible(t, page, drawer+" "+selRunForm, "the run form in the drawer")
	cards := drawer + ` [data-testid="invocation-card"]`
	var before []string
	evalJSON(t, page, `sel => JSON.stringify([...document.querySelectorAll(sel)].map(c => c.dataset.invocation))`, cards, &before)
	click(t, page, drawer+" "+selRunForm+` [data-testid="run-submit"]`)
	// The new call's card is the one the drawer did not show before.
	waitTrue(t, page, `([sel, before]) => [...document.querySelectorAll(sel)]
		.some(c => !before.includes(c.dataset.invocation) && c.dataset.status === 'success')`,
		[]any{cards, before}, "the new call's card in the drawer, done")
	var place struct {
		ID     string
		Inside bool // the form's section holds its calls' cards
		Gap    float64
	}
	evalJSON(t, page, `([form, sel, before]) => {
		const f = document.querySelector(form);
		const c = [...document.querySelectorAll(sel)].find(c => !before.includes(c.dataset.invocation));
		if (!f) return JSON.stringify({id: c.dataset.invocation, inside: false, gap: -1e6});
		// Inside the form's section, measure from its Run button.
		const inside = f.contains(c), submit = f.querySelector('[data-testid="run-submit"]');
		const from = inside && submit ? submit.getBoundingClientRect().bottom : f.getBoundingClientRect().bottom;
		return JSON.stringify({id: c.dataset.invocation, inside, gap: c.getBoundingClientRect().top - from});
	}`, []any{drawer + " " + selRunForm, cards, before}, &place)
	if place.Gap < -1 || place.Gap > 200 {
		t.Errorf("the new card %s sits %.0f px below the run form (inside it: %v), want it right under the form (0..200 px)", place.ID, place.Gap, place.Inside)
	}
	card := fmt.Sprintf(`%s[data-invocation=%q]`, cards, place.ID)
	var modal string
	evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).closest('[aria-modal]')?.getAttribute('aria-modal') || '')`, drawer, &modal)
	if modal == "true" {
		t.Errorf("drawer at 1400 px: aria-modal=true, want a docked, non-modal column")
	}
	checkNoHScroll(t, page, "docked drawer with a card")
	// Docked means the page is narrowed beside it: nothing of the list may
	// sit behind the drawer.
	var hidden []string
	evalJSON(t, page, `sel => {
		const left = document.querySelector(sel).getBoundingClientRect().left;
		return JSON.stringify([...document.querySelectorAll('[data-testid="row-open"], [data-testid="call-row"], [data-testid="header-summary"]')]
			.filter(e => e.getClientRects().length && e.getBoundingClientRect().right > left + 1)
			.slice(0, 3).map(e => (e.dataset.testid || e.tagName) + ' right=' + Math.round(e.getBoundingClientRect().right) + ' drawer left=' + Math.round(left)));
	}`, drawer, &hidden)
	if len(hidden) > 0 {
		t.Errorf("with the drawer docked, page content reaches behind it: %s", strings.Join(hidden, "; "))
	}
	if err := page.Locator(card).ScrollIntoViewIfNeeded(); err != nil {
		t.Errorf("scroll the card into view: %v", err)
	}
	screenshot(t, page, "drawer-docked-1400", false)
}

// scalePresets runs axe on the 1400 px page in every preset, light and
// dark, with the most on it at once: the drawer docked with its history
// pictures and a run's card, and a Markdown and an error card open in the
// call list. The theme and preset are nothing but the html element's
// data-theme and data-preset (views/page.templ; the stylesheets key on
// them), so setting those in place shows what a reload with the stored
// choice would, without fourteen loads of a page this size.
func scalePresets(t *testing.T, page playwright.Page) {
	if !visible(t, page, drawerSel(scaleDrawerServer)) {
		scaleOpenDrawer(t, page, scaleDrawerServer)
	}
	openCallCard(t, page, scaleMarkdownID)
	openCallCard(t, page, scaleErrorID)
	for _, preset := range presets {
		for _, theme := range []string{"light", "dark"} {
			t.Run(preset+"/"+theme, func(t *testing.T) {
				var ok bool
				evalJSON(t, page, `([theme, preset]) => {
					const h = document.documentElement;
					h.dataset.theme = theme;
					h.dataset.preset = preset;
					void getComputedStyle(document.body).color; // start the colour transitions now
					return JSON.stringify(true);
				}`, []any{theme, preset}, &ok)
				checkAxe(t, page, preset+" "+theme+" dashboard, docked drawer and open cards")
			})
		}
	}
}
