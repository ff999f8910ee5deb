//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// cardLook is the part of a card's computed style a preset decides.
type cardLook struct {
	BorderWidth     string `json:"borderWidth"`
	Radius          string `json:"radius"`
	BackdropFilter  string `json:"backdropFilter"`
	BackgroundImage string `json:"backgroundImage"`
	Background      string `json:"background"`
}

// cardLookOf reads the computed style of the card matching selector.
func cardLookOf(t *testing.T, page playwright.Page, selector string) cardLook {
	t.Helper()
	var l cardLook
	evalJSON(t, page, `sel => { const s = getComputedStyle(document.querySelector(sel)); return JSON.stringify({
		borderWidth: s.borderTopWidth, radius: s.borderTopLeftRadius, backdropFilter: s.backdropFilter,
		backgroundImage: s.backgroundImage, background: s.backgroundColor}); }`, selector, &l)
	return l
}

// TestCardsFollowPresets: an invocation card takes each
// preset's look, as the page's other surfaces do (material2's small
// corners and filled surface, brutalist's 2px border, cyberpunk_neon's
// gradient, glassmorphism's blur), stays axe-clean in light and dark with
// its header-opened arguments in the typed form view, and glass turns
// solid for a person who asks for less transparency.
func TestCardsFollowPresets(t *testing.T) {
	in := demoOnly(t, "alpha")
	log := followInvocations(t, in)
	inv := callTool(t, in, "alpha", "snapshot_settings", map[string]any{"scale": "device", "zoom": 150})
	log.waitFinal(t, inv.ID)
	card := feedCard(inv.ID)

	looks := map[string]cardLook{}
	for _, theme := range []string{"light", "dark"} {
		for _, preset := range presets {
			t.Run(preset+"/"+theme, func(t *testing.T) {
				page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
				setPreference(t, page, "theme", theme)
				setPreference(t, page, "preset", preset)
				waitFor(t, page, fmt.Sprintf(`html[data-preset=%q][data-theme=%q]`, preset, theme), "preset applied")
				openRowCard(t, page, inv.ID, "success")
				l := cardLookOf(t, page, card)
				looks[preset+"/"+theme] = l
				checkCardLook(t, preset, l, looks["material3/"+theme])
				if preset == "cyberpunk_neon" {
					// axe cannot measure text over a gradient; measure it here.
					if r := gradientContrast(t, page, card); r < 7 {
						t.Errorf("cyberpunk_neon card: lowest text contrast over its gradient %.2f:1, want at least 7:1", r)
					}
				}

				click(t, page, card+` [data-testid="invocation-tool"]`)
				waitVisible(t, page, card+` [data-testid="invocation-args-json"]`, "the header opens the arguments")
				click(t, page, card+` [data-testid="invocation-args-view"]`)
				waitVisible(t, page, card+` [data-testid="invocation-args-form"]`, "form view")
				checkAxe(t, page, "a card's arguments in form view")
			})
		}
	}

	t.Run("reduced-transparency", func(t *testing.T) {
		page := openWith(t, in, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
		setPreference(t, page, "theme", "light")
		setPreference(t, page, "preset", "glassmorphism")
		openRowCard(t, page, inv.ID, "success")
		cdp, err := page.Context().NewCDPSession(page)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cdp.Send("Emulation.setEmulatedMedia", map[string]any{
			"features": []map[string]any{{"name": "prefers-reduced-transparency", "value": "reduce"}}}); err != nil {
			t.Fatal(err)
		}
		waitTrue(t, page, `() => matchMedia('(prefers-reduced-transparency: reduce)').matches`, nil, "reduced transparency emulated")
		l := cardLookOf(t, page, card)
		if l.BackdropFilter != "none" {
			t.Errorf("backdrop-filter with reduced transparency: got %q, want none", l.BackdropFilter)
		}
		if strings.Contains(l.Background, "rgba") || strings.Contains(l.Background, "/ ") {
			t.Errorf("card background with reduced transparency: got %q, want opaque", l.Background)
		}
		checkAxe(t, page, "glassmorphism with reduced transparency")
	})
}

// checkCardLook holds a card's computed style to what its preset promises,
// against material3's card in the same theme.
func checkCardLook(t *testing.T, preset string, l, base cardLook) {
	t.Helper()
	switch preset {
	case "material3":
		if l.Radius != "10px" {
			t.Errorf("material3 card radius: got %s, want 10px", l.Radius)
		}
	case "material2":
		if l.Radius != "4px" {
			t.Errorf("material2 card radius: got %s, want 4px", l.Radius)
		}
		if l.Background == base.Background {
			t.Errorf("material2 card background: got material3's %s, want the filled surface", l.Background)
		}
	case "brutalist":
		if l.BorderWidth != "2px" || l.Radius != "0px" {
			t.Errorf("brutalist card: border %s radius %s, want 2px and 0px", l.BorderWidth, l.Radius)
		}
	case "cyberpunk_neon":
		if !strings.Contains(l.BackgroundImage, "linear-gradient") {
			t.Errorf("cyberpunk_neon card background-image: got %q, want a gradient", l.BackgroundImage)
		}
	case "glassmorphism":
		if !strings.Contains(l.BackdropFilter, "blur") {
			t.Errorf("glassmorphism card backdrop-filter: got %q, want a blur", l.BackdropFilter)
		}
	}
	if preset != "material3" && base != (cardLook{}) && l == base {
		t.Errorf("%s card looks exactly like material3's: %+v", preset, l)
	}
}

// TestCardHeaderExpandsArguments: clicking the card's
// header opens the arguments and clicking again closes them; the header's
// button says so with aria-expanded and works from the keyboard; the
// summary keeps it in step; the form view shows typed read-only controls.
func TestCardHeaderExpandsArguments(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	inv := callTool(t, in, "alpha", "snapshot_settings", map[string]any{"scale": "device", "zoom": 150})
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "success")
	box := card + ` [data-testid="invocation-args"]`
	pre := box + ` [data-testid="invocation-args-json"]`
	btn := card + ` [data-testid="invocation-head-toggle"]`
	expanded := func(want string) {
		t.Helper()
		waitFor(t, page, fmt.Sprintf(`%s[aria-expanded=%q]`, btn, want), "aria-expanded "+want)
	}

	expanded("false")
	click(t, page, card+` [data-testid="invocation-tool"]`)
	waitVisible(t, page, pre, "a click on the tool name opens the arguments")
	expanded("true")
	click(t, page, card+` [data-testid="invocation-head"] .inv-icon`)
	waitHidden(t, page, pre, "a click on the header's icon closes them")
	expanded("false")

	if err := page.Locator(btn).Focus(); err != nil {
		t.Fatal(err)
	}
	press(t, page, "Enter")
	waitVisible(t, page, pre, "Enter on the header opens the arguments")
	expanded("true")
	press(t, page, " ")
	waitHidden(t, page, pre, "Space on the header closes them")
	expanded("false")

	click(t, page, box+` > summary`)
	waitVisible(t, page, pre, "the summary still opens them")
	expanded("true")

	// The form view is the Run form's controls, read-only.
	click(t, page, box+` [data-testid="invocation-args-view"]`)
	form := box + ` [data-testid="invocation-args-form"]`
	waitVisible(t, page, form, "form view")
	radio := form + ` [data-testid="invocation-arg-field"][data-name="scale"] input[type="radio"]:checked`
	if got, err := page.Locator(radio).InputValue(); err != nil || got != `"device"` {
		t.Errorf("scale's checked option: got %q (%v), want \"device\"", got, err)
	}
	if ok, err := page.Locator(radio).IsDisabled(); err != nil || !ok {
		t.Errorf("scale's options are not disabled (%v)", err)
	}
	zoom := page.Locator(form + ` [data-testid="invocation-arg-field"][data-name="zoom"] input[type="number"]`)
	if got, err := zoom.InputValue(); err != nil || got != "150" {
		t.Errorf("zoom: got %q (%v), want 150", got, err)
	}
	if ok, err := zoom.IsEditable(); err != nil || ok {
		t.Errorf("zoom is editable (%v), want read-only", err)
	}
	checkAxe(t, page, "typed form view open from the header")
}

// gradientContrast is the lowest contrast ratio between the card's text
// colours (the tool name's and the muted origin line's) and any colour
// stop of its background gradient, each stop read back through a canvas.
func gradientContrast(t *testing.T, page playwright.Page, card string) float64 {
	t.Helper()
	var ratio float64
	evalJSON(t, page, `sel => {
		const el = document.querySelector(sel);
		const ctx = document.createElement('canvas').getContext('2d');
		const rgb = c => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = c; ctx.fillRect(0, 0, 1, 1);
			return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)); };
		const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
			return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
		const stops = getComputedStyle(el).backgroundImage.match(/(rgba?|color)\([^)]*\)/g) || [];
		const texts = [el.querySelector('[data-testid="invocation-tool"] button'), el.querySelector('.inv-origin')]
			.map(e => rgb(getComputedStyle(e).color));
		let low = Infinity;
		for (const s of stops) for (const c of texts) low = Math.min(low, ratio(rgb(s), c));
		return JSON.stringify(stops.length ? low : 0);
	}`, card, &ratio)
	return ratio
}
