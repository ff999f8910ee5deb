package views_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// pngOf is a w × h PNG, base64-encoded.
func pngOf(t *testing.T, w, h int) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestSmallImagesAreEnlargedWithTheirSize: an image under MinImageSide on
// its short side is drawn at a whole multiple, pixelated, and the caption
// gives its own size.
func TestSmallImagesAreEnlargedWithTheirSize(t *testing.T) {
	tests := []struct {
		name       string
		mime, data string
		w, h       string
		pixel      bool
		caption    string
	}{
		{"icon", "image/png", pngOf(t, 20, 20), "100", "100", true, "20 × 20 px, shown enlarged"},
		{"wide", "image/png", pngOf(t, 300, 48), "600", "96", true, "300 × 48 px, shown enlarged"},
		{"large", "image/png", pngOf(t, 200, 120), "200", "120", false, "200 × 120 px"},
		{"thin", "image/png", pngOf(t, 4000, 1), "4000", "1", false, "4000 × 1 px"},
		{"webp-vp8x", "image/webp", webpVP8X(30, 10), "300", "100", true, "30 × 10 px, shown enlarged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			item, _ := json.Marshal(map[string]string{"type": "image", "mimeType": tt.mime, "data": tt.data})
			items := views.NewContentItems(domain.Result{Content: []json.RawMessage{item}}, views.ContentURLs{}, -1)
			doc := renderComponent(t, "en", views.ContentItems(items))
			img := doc.Find(`img[data-testid="content-image"]`)
			if img.Length() != 1 {
				t.Fatalf("images: got %d, want 1", img.Length())
			}
			if w, h := img.AttrOr("width", ""), img.AttrOr("height", ""); w != tt.w || h != tt.h {
				t.Errorf("drawn size: got %s × %s, want %s × %s", w, h, tt.w, tt.h)
			}
			if got := img.HasClass("content-image-pixelated"); got != tt.pixel {
				t.Errorf("pixelated: got %v, want %v", got, tt.pixel)
			}
			if got := doc.Find(`[data-testid="content-image-size"]`).Text(); got != tt.caption {
				t.Errorf("caption: got %q, want %q", got, tt.caption)
			}
		})
	}
}

// webpVP8X is the head of an extended WebP of w × h, enough for its size
// and the card's type check.
func webpVP8X(w, h int) string {
	b := []byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00")
	le24 := func(v int) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16)} }
	b = append(b, le24(w-1)...)
	b = append(b, le24(h-1)...)
	return base64.StdEncoding.EncodeToString(b)
}
