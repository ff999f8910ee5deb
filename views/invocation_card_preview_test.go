package views_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// The preview the feed carries keeps at least what a card shows.
func TestPreviewBoundsCoverTheCard(t *testing.T) {
	if domain.PreviewTextBytes < views.InlineTextCap || domain.PreviewItems < views.MaxContentItems {
		t.Errorf("preview keeps %d bytes of a text and %d items; a card shows %d and %d",
			domain.PreviewTextBytes, domain.PreviewItems, views.InlineTextCap, views.MaxContentItems)
	}
}

// A card drawn from the feed's preview of a large result is the card drawn
// from the whole result, byte for byte: its Show more, Copy and download
// links then read the whole from the store.
func TestCardFromPreviewIsTheCardOfTheWhole(t *testing.T) {
	t.Parallel()
	urls := boundURLs
	urls.Media = func(i int) string { return fmt.Sprintf("/media?i=%d", i) }
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	many := []any{}
	for i := range 130 {
		many = append(many, text(strings.Repeat(fmt.Sprintf("line %d\n", i), 3_000+i*10)))
	}
	cases := map[string][]any{
		"one-long-markdown-text": {text(strings.Repeat("# Title\n\nSome *text* é 中 😀 <b>x</b>\n\n", 200_000))},
		"long-json-text":         {text(`{"rows":[` + strings.Repeat(`{"a":1,"b":"two"},`, 200_000) + `{}]}`)},
		"texts-then-small-image": {text(strings.Repeat("a", 2<<20)), text(strings.Repeat("b\\\"", 100_000)),
			map[string]any{"type": "image", "mimeType": "image/png", "data": invPNG}, text("short")},
		"more-items-than-a-card-shows": many,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			raw, _ := json.Marshal(map[string]any{"content": content, "isError": false})
			inv := boundInv(`{}`, string(raw))
			inv.ResultSize = int64(len(raw))
			shown := inv.Preview()
			if !shown.ResultPreviewed {
				t.Fatalf("a result of %d bytes was not previewed", len(raw))
			}
			in := views.CardInput{Place: views.CardInFeed, URLs: urls}
			whole := renderHTML(t, "en", views.InvocationCard(views.NewInvocationCardProps(inv, in)))
			preview := renderHTML(t, "en", views.InvocationCard(views.NewInvocationCardProps(shown, in)))
			if string(whole) != string(preview) {
				t.Errorf("the card of the preview (%d bytes of result) differs from the card of the whole (%d bytes)",
					len(shown.Result), len(raw))
			}
		})
	}
}
