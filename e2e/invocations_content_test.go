//go:build e2e

package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// succeeded calls tool on server, waits for its feed card to succeed and
// returns the card's selector.
func succeeded(t *testing.T, in *instance, page playwright.Page, server, tool string, args map[string]any) string {
	t.Helper()
	inv := callTool(t, in, server, tool, args)
	waitCard(t, page, inv.ID, "success")
	return feedCard(inv.ID)
}

// checkImage asserts sel is an <img> with a data: src of mime that
// decoded (naturalWidth > 0).
func checkImage(t *testing.T, page playwright.Page, sel, mime string) {
	t.Helper()
	waitFor(t, page, sel, "an image")
	if src := attr(t, page, sel, "src"); !strings.HasPrefix(src, "data:"+mime+";base64,") {
		t.Errorf("%s src: got %.40q..., want a data:%s;base64 URI", sel, src, mime)
	}
	waitTrue(t, page, `sel => { const i = document.querySelector(sel); return i.complete && i.naturalWidth > 0; }`, sel,
		sel+" decodes (naturalWidth > 0)")
	if got := attr(t, page, sel, "alt"); got == "" {
		t.Errorf("%s has no alt text", sel)
	}
}

// TestInvocationContentTypes: T1 item 5 with the demo server: every
// content type it returns renders as itself.
func TestInvocationContentTypes(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})

	t.Run("image", func(t *testing.T) {
		card := succeeded(t, in, page, "alpha", "tiny_image", map[string]any{})
		img := card + ` [data-testid="content-item"][data-type="image"] img[data-testid="content-image"]`
		checkImage(t, page, img, "image/png")
		click(t, page, card+` [data-testid="content-image-open"]`)
		overlay := `[data-testid="image-overlay"]`
		waitVisible(t, page, overlay, "activating the image opens the overlay")
		if got := attr(t, page, overlay, "role"); got != "dialog" {
			t.Errorf("image overlay role: got %q, want dialog", got)
		}
		waitTrue(t, page, `sel => { const i = document.querySelector(sel + ' img'); return i && i.complete && i.naturalWidth > 0 && i.src.startsWith('data:image/png'); }`,
			overlay, "the overlay shows the image full size")
		press(t, page, "Escape")
		waitGone(t, page, overlay, "Escape closes the overlay")
		waitTrue(t, page, `() => document.activeElement?.getAttribute('data-testid') === 'content-image-open'`, nil,
			"focus returns to the image button")
	})

	t.Run("audio", func(t *testing.T) {
		card := succeeded(t, in, page, "alpha", "short_tone", map[string]any{})
		audio := card + ` [data-testid="content-item"][data-type="audio"] audio[data-testid="content-audio"]`
		waitFor(t, page, audio, "an audio element")
		if src := attr(t, page, audio, "src"); !strings.HasPrefix(src, "data:audio/wav;base64,") {
			t.Errorf("audio src: got %.40q..., want data:audio/wav;base64,...", src)
		}
		if got := attr(t, page, audio, "controls"); got == "" && count(t, page, audio+`[controls]`) == 0 {
			t.Errorf("audio has no controls")
		}
		waitTrue(t, page, `sel => { const a = document.querySelector(sel); return a.readyState >= 1 && a.duration > 0; }`, audio,
			"the audio's metadata loads (a playable WAV)")
	})

	t.Run("markdown", func(t *testing.T) {
		card := succeeded(t, in, page, "alpha", "markdown_report", map[string]any{})
		item := card + ` [data-testid="content-item"][data-type="text"]`
		if got := text(t, page, item+` h4`); got != "Demo report" {
			t.Errorf("markdown heading: got %q, want Demo report", got)
		}
		if got := text(t, page, item+` pre code`); !strings.Contains(got, `fmt.Println("hello from the demo server")`) {
			t.Errorf("markdown code block: got %q", got)
		}
		if n := count(t, page, item+` ul > li strong`); n == 0 {
			t.Errorf("markdown list with bold text not rendered")
		}
		if n := count(t, page, item+` a[href^="http"]`); n > 0 {
			if rel := attr(t, page, item+` a[href^="http"]`, "rel"); !strings.Contains(rel, "noopener") && !strings.Contains(rel, "noreferrer") {
				t.Errorf("markdown link rel %q: want noopener/noreferrer", rel)
			}
		}
	})

	t.Run("resource_link", func(t *testing.T) {
		card := succeeded(t, in, page, "alpha", "resource_links", map[string]any{})
		chip := card + ` [data-testid="content-item"][data-type="resource_link"] [data-testid="resource-link"]`
		waitVisible(t, page, chip, "a resource_link chip")
		if n := count(t, page, chip); n < 3 {
			t.Errorf("resource_link chips: got %d, want one per demo resource (>= 3)", n)
		}
		// The first link is the readme, demo://readme.
		if got := attr(t, page, chip, "data-resource"); got != "demo://readme" {
			t.Errorf("first resource_link chip data-resource: got %q, want demo://readme", got)
		}
		if got := text(t, page, chip); !strings.Contains(got, "demo://readme") {
			t.Errorf("first resource_link chip text: got %q, want it to show demo://readme", got)
		}
		first := card + ` [data-testid="content-item"][data-type="resource_link"]`
		click(t, page, chip)
		preview := first + ` [data-testid="resource-preview"]`
		waitFor(t, page, preview+` [data-testid="content-item"]`, "activating the chip previews the resource inline")
		if got := text(t, page, preview); got == "" {
			t.Errorf("resource preview is empty")
		}
	})

	t.Run("embedded_text", func(t *testing.T) {
		card := succeeded(t, in, page, "alpha", "embedded_text_resource", map[string]any{})
		item := card + ` [data-testid="content-item"][data-type="resource"]`
		waitFor(t, page, item+` [data-testid="content-text"]`, "the embedded text renders")
		if n := count(t, page, item+` [data-testid="content-text"] h4, `+item+` [data-testid="content-text"] h5`); n == 0 {
			t.Errorf("embedded text/markdown resource not rendered as Markdown (no heading): %q", text(t, page, item))
		}
		if got := text(t, page, item+` .content-uri`); !strings.Contains(got, "://") {
			t.Errorf("embedded resource URI caption: got %q", got)
		}
	})

	t.Run("embedded_blob_image", func(t *testing.T) {
		card := succeeded(t, in, page, "alpha", "embedded_blob_resource", map[string]any{})
		// The demo's blob is image/png: shown as the image it is.
		checkImage(t, page, card+` [data-testid="content-item"][data-type="resource"] img[data-testid="content-image"]`, "image/png")
	})

	t.Run("structured", func(t *testing.T) {
		card := succeeded(t, in, page, "alpha", "structured_weather", map[string]any{"city": "Porto"})
		pre := card + ` [data-testid="content-structured"]`
		waitVisible(t, page, pre, "structured content")
		var w map[string]any
		if err := json.Unmarshal([]byte(textRaw(t, page, pre)), &w); err != nil {
			t.Fatalf("structured content is not JSON: %v", err)
		}
		if w["city"] != "Porto" || w["temperatureC"] != 21.5 {
			t.Errorf("structured content: got %v, want city Porto, temperatureC 21.5", w)
		}
		if n := count(t, page, card+` [data-testid="content-schema-warning"]`); n != 0 {
			t.Errorf("schema warning on content that matches the output schema: %q", text(t, page, card+` [data-testid="content-schema-warning"]`))
		}
	})
}
