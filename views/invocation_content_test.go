package views_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestContentTypes(t *testing.T) {
	wav := base64.StdEncoding.EncodeToString([]byte("RIFF....WAVEfmt "))
	blob := base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 3})
	result := `{"content":[
		{"type":"text","text":"# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~\n\n` + "```go\\nfmt.Println()\\n```" + `","annotations":{"audience":["user"],"priority":0.7}},
		{"type":"image","mimeType":"image/png","data":"` + invPNG + `"},
		{"type":"audio","mimeType":"audio/wav","data":"` + wav + `"},
		{"type":"resource_link","uri":"file:///notes/a.md","name":"a.md","mimeType":"text/markdown","size":2048},
		{"type":"resource","resource":{"uri":"file:///notes/b.md","mimeType":"text/markdown","text":"**bold**"}},
		{"type":"resource","resource":{"uri":"file:///data/c.bin","mimeType":"application/octet-stream","blob":"` + blob + `"}},
		{"type":"resource","resource":{"uri":"file:///img/d.png","mimeType":"image/png","blob":"` + invPNG + `"}}
	],"structuredContent":{"temperature":21}}`
	card := renderCard(t, invAt(domain.InvocationSuccess, result), views.CardInput{})
	items := card.Find(`[data-testid="content-item"]`)
	var types []string
	items.Each(func(_ int, s *goquery.Selection) { types = append(types, s.AttrOr("data-type", "")) })
	if got, want := strings.Join(types, ","), "text,image,audio,resource_link,resource,resource,resource"; got != want {
		t.Fatalf("item types: got %s, want %s", got, want)
	}
	if got := card.Find(`hr.content-divider`).Length(); got != 7 { // six between items, one before structured content
		t.Errorf("dividers: got %d, want 7", got)
	}
	text := items.Eq(0)
	for _, sel := range []string{"h4", "table td", "del", `pre code.language-go`} {
		if text.Find(sel).Length() == 0 {
			t.Errorf("markdown: no %s in %s", sel, goquery.NewDocumentFromNode(text.Nodes[0]).Text())
		}
	}
	if got := text.Find(`[data-testid="content-annotation"]`).Length(); got != 2 {
		t.Errorf("annotations: got %d, want 2", got)
	}
	if src := items.Eq(1).Find(`img[data-testid="content-image"]`).AttrOr("src", ""); !strings.HasPrefix(src, "data:image/png;base64,") {
		t.Errorf("image src: got %q", src)
	}
	if src := items.Eq(2).Find(`audio[controls]`).AttrOr("src", ""); !strings.HasPrefix(src, "data:audio/wav;base64,") {
		t.Errorf("audio src: got %q", src)
	}
	link := items.Eq(3).Find(`[data-testid="resource-link"]`)
	if got := link.AttrOr("hx-get", ""); got != "/read?uri=file:///notes/a.md" {
		t.Errorf("resource link read url: got %q", got)
	}
	if got := link.Text(); !strings.Contains(got, "2 KiB") || !strings.Contains(got, "text/markdown") {
		t.Errorf("resource link: got %q, want name, MIME and size", got)
	}
	if items.Eq(4).Find("strong").Text() != "bold" {
		t.Errorf("embedded markdown not rendered")
	}
	dl := items.Eq(5).Find(`[data-testid="content-download"]`)
	if got := dl.AttrOr("download", ""); got != "c.bin" {
		t.Errorf("download name: got %q, want c.bin", got)
	}
	if got := dl.AttrOr("href", ""); got != "data:application/octet-stream;base64,"+blob {
		t.Errorf("download href: got %q", got)
	}
	if items.Eq(6).Find(`img[data-testid="content-image"]`).Length() != 1 {
		t.Errorf("embedded image blob not shown as an image")
	}
	if got := card.Find(`[data-testid="content-structured"]`).Text(); !strings.Contains(got, `"temperature": 21`) {
		t.Errorf("structured content: got %q", got)
	}
}

// The card shows the output schema violations the domain stored with the
// invocation, with no validator of its own, and none when none were stored.
func TestStructuredContentSchemaWarning(t *testing.T) {
	tool := &domain.Tool{Name: "echo", OutputSchema: []byte(`{"type":"object"}`)}
	inv := invAt(domain.InvocationSuccess, `{"content":[],"structuredContent":{"temperature":"hot"}}`)
	inv.OutputViolations = []domain.Violation{{Pointer: "/temperature", Message: "want number", Key: "SchemaTypeNumber"}}
	card := renderCard(t, inv, views.CardInput{Tool: tool})
	if got := card.Find(`[data-testid="content-schema-warning"]`).Text(); !strings.Contains(got, "At /temperature: Must be a number") {
		t.Errorf("schema warning: got %q", got)
	}
	inv.OutputViolations = nil
	card = renderCard(t, inv, views.CardInput{Tool: tool})
	if card.Find(`[data-testid="content-schema-warning"]`).Length() != 0 {
		t.Errorf("warning without stored violations")
	}
}

func TestContentRefusesUnsafeMedia(t *testing.T) {
	svg := base64.StdEncoding.EncodeToString([]byte(`<svg onload="alert(1)"/>`))
	notPNG := base64.StdEncoding.EncodeToString([]byte("GIF89a lies"))
	for name, item := range map[string]string{
		"svg":          `{"type":"image","mimeType":"image/svg+xml","data":"` + svg + `"}`,
		"wrong magic":  `{"type":"image","mimeType":"image/png","data":"` + notPNG + `"}`,
		"bad base64":   `{"type":"image","mimeType":"image/png","data":"%%%"}`,
		"html audio":   `{"type":"audio","mimeType":"text/html","data":"` + svg + `"}`,
		"icon as text": `{"type":"image","mimeType":"image/png\";onerror=\"x","data":"` + invPNG + `"}`,
	} {
		card := renderCard(t, invAt(domain.InvocationSuccess, `{"content":[`+item+`]}`), views.CardInput{})
		if card.Find("img, audio").Length() != 0 {
			t.Errorf("%s: rendered media", name)
		}
		if card.Find(`[data-testid="content-refused"]`).Length() != 1 {
			t.Errorf("%s: no refusal note", name)
		}
	}
}

func TestHostileContentIsInert(t *testing.T) {
	hostile := strings.Join([]string{"<script>alert(1)</script>", "text <img src=x onerror=alert(2)> inline", "[x](javascript:alert(3))",
		"<a href=\"javascript:alert(4)\">y</a>", "<iframe src=\"//evil\"></iframe>", "![p](https://evil.example/p.png)", "[ok](https://example.com)"}, "\n\n")
	text, _ := json.Marshal(hostile)
	inv := invAt(domain.InvocationError, `{"isError":true,"content":[{"type":"text","text":`+string(text)+`},{"type":"resource","resource":{"uri":"x.md","mimeType":"text/markdown","text":`+string(text)+`}}]}`)
	inv.Tool = "<script>alert(5)</script>"
	inv.Error = "<img src=x onerror=alert(6)>"
	tool := &domain.Tool{Name: inv.Tool, Description: hostile, IconURLs: []string{"https://evil.example/icon.png"}}
	card := renderCard(t, inv, views.CardInput{Tool: tool})
	html, _ := goquery.OuterHtml(card)
	if n := card.Find("script, img, iframe").Length(); n != 0 {
		t.Errorf("hostile elements survived: %d in %s", n, html)
	}
	card.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			v := strings.ToLower(a.Val)
			if strings.HasPrefix(a.Key, "on") || strings.Contains(v, "javascript:") || strings.Contains(v, "evil.example") {
				t.Errorf("hostile attribute %s=%q survived", a.Key, a.Val)
			}
		}
	})
	a := card.Find(`.content-text a[href="https://example.com"]`).First()
	if got := a.AttrOr("rel", ""); !strings.Contains(got, "nofollow") || !strings.Contains(got, "noopener") || !strings.Contains(got, "noreferrer") {
		t.Errorf("link rel: got %q", got)
	}
	if got := a.AttrOr("target", ""); got != "_blank" {
		t.Errorf("link target: got %q, want _blank", got)
	}
	if got := card.Find(`[data-testid="invocation-tool"]`).Text(); got != inv.Tool {
		t.Errorf("tool name not shown as text: got %q", got)
	}
}

func TestLongTextAndTruncation(t *testing.T) {
	long, _ := json.Marshal(strings.Repeat("line of text\n\n", 200)) // > 2,000 characters
	inv := invAt(domain.InvocationSuccess, `{"content":[{"type":"text","text":`+string(long)+`}]}`)
	inv.Truncated = true
	card := renderCard(t, inv, views.CardInput{})
	if card.Find(`[data-testid="content-show-more"]`).Length() != 1 || card.Find(`.content-long`).Length() != 1 {
		t.Errorf("long text: no Show more")
	}
	if got := strings.Count(card.Find(`[data-testid="content-text"]`).Text(), "line of text"); got != 200 {
		t.Errorf("full text in the DOM: got %d lines, want 200", got)
	}
	if card.Find(`[data-testid="invocation-truncated"]`).Length() != 1 {
		t.Errorf("truncated result: no marker")
	}
	huge, _ := json.Marshal(strings.Repeat("x", views.InlineTextCap*2))
	card = renderCard(t, invAt(domain.InvocationSuccess, `{"content":[{"type":"text","text":`+string(huge)+`}]}`), views.CardInput{})
	if got := len(card.Find(`[data-testid="content-text"]`).Text()); got > views.InlineTextCap+100 {
		t.Errorf("inline text: got %d bytes, want at most the cap %d", got, views.InlineTextCap)
	}
	if card.Find(`[data-testid="content-show-full"]`).AttrOr("hx-get", "") != "/item" {
		t.Errorf("clipped text: no Show the full text")
	}
	short := renderCard(t, invAt(domain.InvocationSuccess, `{"content":[{"type":"text","text":"short"}]}`), views.CardInput{})
	if short.Find(`[data-testid="content-show-more"]`).Length() != 0 {
		t.Errorf("short text has Show more")
	}
}
