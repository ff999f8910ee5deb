package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/views"
)

// The tool list is a workbench: a search box above it, each tool a
// two-line row (name and title, then the description) with its risk and
// Run in one side column, a hidden Cancel and progress slot for drawer.js
// to show while a call runs, and tags that carry their meaning in a class
// as well as in words.
func TestDrawerToolRows(t *testing.T) {
	doc := renderDrawerPart(t, "en", views.Drawer(views.NewDrawerProps(drawerConnected("files"), drawerSampleCaps(), nil, drawerTestURLs)))
	tools := doc.Find(`details[data-testid="caps-tools"]`)
	search := tools.Find(`input[type="search"][data-testid="tool-search"]`)
	if search.Length() != 1 {
		t.Fatalf("tool search: got %d, want 1", search.Length())
	}
	if got := search.AttrOr("placeholder", ""); got != "Search tools…" {
		t.Errorf("placeholder: got %q", got)
	}
	list := tools.Find(`[data-testid="tool-list"]`)
	if got, want := search.AttrOr("aria-controls", ""), list.AttrOr("id", "-"); got != want {
		t.Errorf("search controls %q, want the list %q", got, want)
	}
	if got := search.AttrOr("aria-label", ""); got == "" {
		t.Errorf("search has no accessible name")
	}
	if n := tools.Find(`[data-testid="tool-search-none"][hidden]`).Length(); n != 1 {
		t.Errorf("no-match note: got %d hidden, want 1", n)
	}

	row := list.Find(`[data-testid="tool-item"][data-tool="read_file"]`)
	if got := row.AttrOr("data-search", ""); got != "read_file\nread file\nreads a file." {
		t.Errorf("search text: got %q", got)
	}
	if got := strings.TrimSpace(row.Find(`.tool-line .cap-name`).Text()); got != "read_file" {
		t.Errorf("first line name: got %q", got)
	}
	if got := row.Find(`.tool-line .cap-title`).Text(); got != "Read file" {
		t.Errorf("first line title: got %q", got)
	}
	if got := row.Find(`.tool-desc`).AttrOr("title", ""); got != "Reads a file." {
		t.Errorf("description title: got %q", got)
	}
	side := row.Find(`.tool-side`)
	for _, id := range []string{"tool-risk", "tool-run", "tool-cancel"} {
		if side.Find(`[data-testid="`+id+`"]`).Length() != 1 {
			t.Errorf("%s: not in the side column", id)
		}
	}
	if _, hidden := side.Find(`[data-testid="tool-cancel"]`).Attr("hidden"); !hidden {
		t.Errorf("Cancel shown before any call runs")
	}
	if _, hidden := row.Find(`[data-testid="tool-progress"]`).Attr("hidden"); !hidden {
		t.Errorf("progress shown before any call runs")
	}
	for key, class := range map[string]string{"readOnly": "tag-readOnly", "destructive": "tag-destructive", "openWorld": "tag-openWorld"} {
		tag := list.Find(`[data-testid="tool-tag"][data-tag="` + key + `"]`)
		if !tag.HasClass(class) || strings.TrimSpace(tag.Text()) == "" {
			t.Errorf("tag %s: got class %q text %q, want %s and words", key, tag.AttrOr("class", ""), tag.Text(), class)
		}
	}
}
