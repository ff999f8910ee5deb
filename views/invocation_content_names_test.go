package views_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/views"
)

// TestLongNamesAreCut: a server names its links and resources as it
// likes; a hundred links with 100 KB URIs, names and types, and resources
// with 100 KB URIs, still make a card under maxCardHTML. A link whose URI
// is cut is named but not previewed, since its URI cannot be sent back.
func TestLongNamesAreCut(t *testing.T) {
	long := strings.Repeat("n", 100<<10)
	link, _ := json.Marshal(map[string]any{"type": "resource_link", "uri": "file:///" + long, "name": long, "mimeType": "text/" + long,
		"annotations": map[string]any{"audience": []string{long}}})
	res, _ := json.Marshal(map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///" + long, "mimeType": "application/" + long, "blob": "AAEC"}})
	items := []string{`{"type":"resource_link","uri":"file:///short.md","name":"short.md"}`}
	for range 50 {
		items = append(items, string(link), string(res))
	}
	doc := renderMediaCard(t, resultOf(items...))
	links := doc.Find(`[data-testid="resource-link"]`)
	if links.Length() != 51 {
		t.Fatalf("links: got %d, want 51", links.Length())
	}
	if got := links.First().AttrOr("hx-get", ""); got != "/read?uri=file:///short.md" {
		t.Errorf("short link: got hx-get %q, want its preview", got)
	}
	if n := doc.Find(`[data-testid="resource-link"][hx-get]`).Length(); n != 1 {
		t.Errorf("previewable links: got %d, want only the short one", n)
	}
	if got := links.Eq(1).Find(".resource-name").Text(); len(got) > views.MaxShownName+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("long name: got %d bytes ending %q, want at most %d and an ellipsis", len(got), got[max(0, len(got)-8):], views.MaxShownName)
	}
	dl := doc.Find(`a[data-testid="content-download"]`).First()
	if got := dl.AttrOr("download", ""); len(got) > views.MaxShownName+len("…") {
		t.Errorf("download name: got %d bytes, want at most %d", len(got), views.MaxShownName)
	}
	if got := dl.AttrOr("type", ""); got != "application/octet-stream" {
		t.Errorf("download type: got %.40q, want a 100 KB type replaced by application/octet-stream", got)
	}
}
