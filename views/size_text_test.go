package views_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// TestSizeTextIsLocalized pins the one way sizes are written, in every
// language the UI speaks.
func TestSizeTextIsLocalized(t *testing.T) {
	cat, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, lang string
		n          int64
		want       string
	}{
		{"en-one-byte", "en", 1, "1 byte"},
		{"en-bytes", "en", 1023, "1,023 bytes"},
		{"en-kib-fraction", "en", 1536, "1.5 KiB"},
		{"en-kib-whole", "en", 2048, "2 KiB"},
		{"en-mib", "en", 5 << 20, "5 MiB"},
		{"en-gib", "en", 3 << 29, "1.5 GiB"},
		{"pt-BR-comma", "pt-BR", 1536, "1,5 KiB"},
		{"zh-Hans-kib", "zh-Hans", 1536, "1.5 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := locales.WithLocalizer(context.Background(), cat.Localizer(tt.lang))
			if got := views.SizeText(ctx, tt.n); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCardLinkSizeIsLocalized checks that a card's resource link shows its
// size as the drawer does, in the reader's language.
func TestCardLinkSizeIsLocalized(t *testing.T) {
	raw := json.RawMessage(`{"type":"resource_link","uri":"file:///a.md","name":"a","size":1536}`)
	item := views.NewContentItem(0, raw, views.ContentURLs{}, false)
	doc := renderDrawerPart(t, "pt-BR", views.ContentItem(item))
	if got := doc.Find(`[data-testid="resource-link"]`).Text(); !strings.Contains(got, "1,5 KiB") {
		t.Errorf("got link %q, want it to hold 1,5 KiB", got)
	}
}
