//go:build e2e

package e2e

import (
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestResultsReadWell: a result's Markdown headings are never smaller than
// its text, a 16 × 16 image is drawn at least 96 px with hard pixel edges
// and its own size in the caption, structured content that passes its
// output schema says so and is shown indented and coloured, in both
// schemes and clean under axe.
func TestResultsReadWell(t *testing.T) {
	for _, scheme := range []*playwright.ColorScheme{playwright.ColorSchemeLight, playwright.ColorSchemeDark} {
		t.Run(string(*scheme), func(t *testing.T) {
			in := demoOnly(t, "alpha")
			page := openCards(t, in, playwright.BrowserNewContextOptions{ColorScheme: scheme,
				Viewport: &playwright.Size{Width: 390, Height: 844}})

			md := succeeded(t, in, page, "alpha", "markdown_report", map[string]any{})
			var small []string
			evalJSON(t, page, `sel => {
				const text = parseFloat(getComputedStyle(document.querySelector(sel + ' [data-testid="content-text"] p')).fontSize);
				return JSON.stringify([...document.querySelectorAll(sel + ' [data-testid="content-text"] :is(h1,h2,h3,h4,h5,h6)')]
					.filter(h => parseFloat(getComputedStyle(h).fontSize) < text).map(h => h.tagName + ' ' + getComputedStyle(h).fontSize));
			}`, md, &small)
			if len(small) > 0 {
				t.Errorf("headings smaller than the result's text: %v", small)
			}

			img := succeeded(t, in, page, "alpha", "tiny_image", map[string]any{}) + ` img[data-testid="content-image"]`
			waitTrue(t, page, `sel => { const i = document.querySelector(sel); return i && i.complete && i.naturalWidth > 0; }`, img, "the image decodes")
			var box struct {
				W, H      float64
				Rendering string
			}
			evalJSON(t, page, `sel => { const i = document.querySelector(sel); const r = i.getBoundingClientRect();
				return JSON.stringify({W: r.width, H: r.height, Rendering: getComputedStyle(i).imageRendering}); }`, img, &box)
			if min(box.W, box.H) < 96 || box.Rendering != "pixelated" {
				t.Errorf("tiny image drawn %v × %v, %s; want at least 96 px, pixelated", box.W, box.H, box.Rendering)
			}
			if got := text(t, page, strings.TrimSuffix(img, ` img[data-testid="content-image"]`)+` [data-testid="content-image-size"]`); !strings.Contains(got, "16 × 16 px") {
				t.Errorf("image caption: got %q, want its own size", got)
			}

			weather := succeeded(t, in, page, "alpha", "structured_weather", map[string]any{})
			waitVisible(t, page, weather+` [data-testid="content-schema-ok"]`, "the schema mark")
			if n := count(t, page, weather+` [data-testid="content-structured"] .hl-nt`); n < 5 {
				t.Errorf("structured content keys coloured: got %d, want 5", n)
			}
			var scroll bool
			evalJSON(t, page, `() => JSON.stringify(document.documentElement.scrollWidth > document.documentElement.clientWidth)`, nil, &scroll)
			if scroll {
				t.Errorf("results scroll sideways at 390 px")
			}
			checkAxe(t, page, "results with headings, an enlarged image and structured content")
		})
	}
}
