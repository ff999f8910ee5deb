package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/views"
)

func TestMarkdown(t *testing.T) {
	tests := []struct {
		name, in     string
		want, reject []string
	}{
		{"heading and code", "# Title\n\n```go\nfmt.Println(1)\n```", []string{"<h4>Title</h4>", `<code class="language-go">`}, nil},
		{"headings nest below the card's title", "# a\n\n#### b", []string{"<h4>a</h4>", "<h5>b</h5>"}, []string{"<h1>", "<h6>"}},
		{"html block shown as text", "<script>alert(1)</script>\n\nafter", []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "after"}, []string{"<script"}},
		{"inline html shown as text", "a <img src=x onerror=alert(1)> b", []string{"&lt;img src=x onerror=alert(1)&gt;"}, []string{"<img"}},
		{"javascript link dropped", "[x](javascript:alert(1))", nil, []string{"javascript:"}},
		{"safe link hardened", "[x](https://example.com)", []string{`href="https://example.com"`, "noopener", "noreferrer", "nofollow"}, nil},
		{"images never load", "![a](https://tracker.example/p.png)", nil, []string{"<img"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := views.RenderMarkdown(tt.in)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("RenderMarkdown(%q) = %q, want it to contain %q", tt.in, got, w)
				}
			}
			for _, r := range tt.reject {
				if strings.Contains(got, r) {
					t.Errorf("RenderMarkdown(%q) = %q, must not contain %q", tt.in, got, r)
				}
			}
		})
	}
}
