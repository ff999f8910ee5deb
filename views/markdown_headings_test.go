package views_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// headingLevels lists the heading levels in sel, in document order.
func headingLevels(sel *goquery.Selection) []int {
	var levels []int
	sel.Find("h1, h2, h3, h4, h5, h6").Each(func(_ int, h *goquery.Selection) {
		levels = append(levels, int(goquery.NodeName(h)[1]-'0'))
	})
	return levels
}

// checkNoSkip fails when a heading is more than one level below the one
// before it (axe's heading-order rule), starting from the card's h3.
func checkNoSkip(t *testing.T, levels []int) {
	t.Helper()
	prev := 3
	for i, l := range levels {
		if l > prev+1 || l > 6 {
			t.Errorf("heading %d is h%d after h%d (levels %v)", i, l, prev, levels)
		}
		prev = l
	}
}

func TestMarkdownHeadingsRankBelowTheCard(t *testing.T) {
	tests := []struct {
		name, in string
		want     []int
	}{
		{"### only", "### Deployments\n\ntext\n\n### Rollbacks", []int{4, 4}},
		{"# and ###", "# Report\n\n### Deployments\n\n# Summary", []int{4, 5, 4}},
		{"### before #", "### Lead\n\n# Report\n\n### Detail", []int{4, 4, 5}},
		{"seven levels", "# 1\n\n## 2\n\n### 3\n\n#### 4\n\n##### 5\n\n###### 6\n\n####### 7\n\n## 2b", []int{4, 5, 6, 6, 6, 6, 5}},
		{"setext", "Title\n=====\n\nPart\n----\n\n#### Deep", []int{4, 5, 6}},
		{"in a list", "- ## item\n\n#### sub", []int{4, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html := views.RenderMarkdown(tt.in)
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
			if err != nil {
				t.Fatal(err)
			}
			got := headingLevels(doc.Selection)
			if !slices.Equal(got, tt.want) {
				t.Errorf("RenderMarkdown(%q) heading levels = %v, want %v\n%s", tt.in, got, tt.want, html)
			}
			checkNoSkip(t, got)
		})
	}
	// A seventh "#" is not a heading in Markdown: it stays text.
	if html := views.RenderMarkdown("####### 7"); !strings.Contains(html, "<p>####### 7</p>") {
		t.Errorf("seven hashes: got %q, want a paragraph", html)
	}
}

// TestCardHeadingOrder renders a whole card: its own title is the h3 the
// heading transform assumes, and the result's headings follow it
// without skipping a level.
func TestCardHeadingOrder(t *testing.T) {
	text := "### Deployments\n\n- web: ok\n\n# Report\n\n##### Detail"
	result, err := json.Marshal(map[string]any{"content": []map[string]any{{"type": "text", "text": text}}})
	if err != nil {
		t.Fatal(err)
	}
	card := renderCard(t, invAt(domain.InvocationSuccess, string(result)), views.CardInput{})
	if got := card.Find(`h3[data-testid="invocation-tool"]`).Length(); got != 1 {
		t.Fatalf("card title: got %d h3 tool headings, want 1 (markdown_headings.go assumes the card's title is an h3)", got)
	}
	levels := headingLevels(card)
	if len(levels) != 4 || levels[0] != 3 {
		t.Fatalf("card heading levels = %v, want the card's h3 then three result headings", levels)
	}
	checkNoSkip(t, levels[1:])
	if want := []int{4, 4, 5}; !slices.Equal(levels[1:], want) {
		t.Errorf("result heading levels = %v, want %v", levels[1:], want)
	}
}
