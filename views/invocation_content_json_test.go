package views_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// textResult is a result of one text item.
func textResult(t *testing.T, text string) domain.Result {
	t.Helper()
	item, err := json.Marshal(map[string]string{"type": "text", "text": text})
	if err != nil {
		t.Fatal(err)
	}
	return domain.Result{Content: []json.RawMessage{item}}
}

// TestJSONTextKeepsItsLinesAndColours: text that is a JSON object is shown
// indented, line for line, coloured, with booleans as check boxes, and a
// hostile string inside it stays text.
func TestJSONTextKeepsItsLinesAndColours(t *testing.T) {
	src := `{"name": "</pre><script>alert(1)</script>", "ok": true, "off": false, "n": 2.5, "list": [null, "x"]}`
	items := views.NewContentItems(textResult(t, src), views.ContentURLs{}, -1)
	doc := renderComponent(t, "en", views.ContentItems(items))
	pre := doc.Find(`details[data-testid="json-view"][open] pre[data-testid="content-json"]`)
	if pre.Length() != 1 {
		t.Fatalf("JSON view: got %d, want 1", pre.Length())
	}
	var want bytes.Buffer
	if err := json.Indent(&want, []byte(src), "", "  "); err != nil {
		t.Fatal(err)
	}
	if got := pre.Text(); got != want.String() {
		t.Errorf("JSON view text:\ngot  %q\nwant %q", got, want.String())
	}
	if doc.Find("script").Length() != 0 {
		t.Errorf("a string in JSON became a script element")
	}
	for sel, n := range map[string]int{".hl-nt": 5, ".json-bool": 2, ".json-bool-true .json-check": 1, ".hl-mf": 1} {
		if got := pre.Find(sel).Length(); got != n {
			t.Errorf("%s: got %d, want %d", sel, got, n)
		}
	}
	if got := doc.Find(`.json-view > summary`).Text(); !strings.Contains(got, "10 lines") {
		t.Errorf("summary: got %q, want the line count", got)
	}
}

// TestMarkdownThatStartsWithABracketIsStillMarkdown: a link at the start
// of a text is not JSON.
func TestMarkdownThatStartsWithABracketIsStillMarkdown(t *testing.T) {
	items := views.NewContentItems(textResult(t, "[docs](https://example.com) say hi"), views.ContentURLs{}, -1)
	if items[0].JSON != nil || !strings.Contains(items[0].HTML, "<a ") {
		t.Errorf("got JSON %v HTML %q, want a Markdown link", items[0].JSON, items[0].HTML)
	}
}

// TestStructuredContentCollapsesBase64: the image's own base64 repeated in
// structuredContent, and any long base64, read as their sizes.
func TestStructuredContentCollapsesBase64(t *testing.T) {
	img := pngOf(t, 20, 20)
	long := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1, 2, 3}, 400)) // 1200 bytes
	item, _ := json.Marshal(map[string]string{"type": "image", "mimeType": "image/png", "data": img})
	structured := `{"png":"` + img + `","blob":"` + long + `","uri":"data:image/png;base64,` + long + `","short":"aGk="}`
	s := views.NewStructuredProps(json.RawMessage(structured), nil, false, []json.RawMessage{item})
	doc := renderComponent(t, "en", views.ContentStructured(*s))
	blobs := doc.Find(`[data-testid="json-blob"]`)
	if blobs.Length() != 3 {
		t.Fatalf("collapsed strings: got %d, want 3 in %s", blobs.Length(), doc.Text())
	}
	if got := blobs.Eq(0).Find("summary").Text(); !strings.Contains(got, "item 1") {
		t.Errorf("image's base64: got %q, want it to name item 1", got)
	}
	if got := blobs.Eq(1).Find("summary").Text(); !strings.Contains(got, "1.2 KiB") {
		t.Errorf("long base64: got %q, want its size 1.2 KiB", got)
	}
	text := doc.Find(`[data-testid="content-structured"]`).Text()
	if !strings.Contains(text, `"aGk="`) {
		t.Errorf("short base64 was collapsed: %q", text)
	}
	if strings.Contains(doc.Find(`[data-testid="content-structured"] summary`).Text(), long[:40]) {
		t.Errorf("a summary repeats the base64")
	}
	if doc.Find(`[data-testid="content-schema-ok"]`).Length() != 0 {
		t.Errorf("schema mark without an output schema")
	}
}

// TestStructuredContentMarkersCannotBeForged: strings that look like the
// view's own markers, and HTML, stay plain escaped text.
func TestStructuredContentMarkersCannotBeForged(t *testing.T) {
	long := strings.Repeat("QUJD", 200)
	structured := `{"a":"\u00000","b":"<img src=x onerror=alert(1)>","c":"` + long + `"}`
	s := views.NewStructuredProps(json.RawMessage(structured), nil, true, nil)
	doc := renderComponent(t, "en", views.ContentStructured(*s))
	if n := doc.Find(`[data-testid="json-blob"]`).Length(); n != 0 {
		t.Errorf("collapsed strings in input holding \\u0000: got %d, want 0", n)
	}
	if doc.Find("img").Length() != 0 {
		t.Errorf("an img element came out of a string")
	}
	if got := doc.Find(`[data-testid="content-structured"]`).Text(); !strings.Contains(got, `<img src=x onerror=alert(1)>`) || !strings.Contains(got, `\u00000`) {
		t.Errorf("view text: got %q", got)
	}
	if doc.Find(`[data-testid="content-schema-ok"]`).Length() != 1 {
		t.Errorf("no schema mark on a checked result without violations")
	}
}

// TestStructuredContentSchemaMark: the mark shows only when the tool has an
// output schema and the result broke none of it.
func TestStructuredContentSchemaMark(t *testing.T) {
	raw := json.RawMessage(`{"t":21}`)
	bad := []domain.Violation{{Pointer: "/t", Message: "want string"}}
	for _, tt := range []struct {
		name       string
		checked    bool
		violations []domain.Violation
		want       int
	}{{"passes", true, nil, 1}, {"fails", true, bad, 0}, {"no-schema", false, nil, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			s := views.NewStructuredProps(raw, tt.violations, tt.checked, nil)
			doc := renderComponent(t, "pt-BR", views.ContentStructured(*s))
			if got := doc.Find(`[data-testid="content-schema-ok"]`).Length(); got != tt.want {
				t.Errorf("schema mark: got %d, want %d", got, tt.want)
			}
		})
	}
}

// TestHugeJSONIsPlainAndBounded: past HighlightJSONBytes the view is
// plain escaped text, still indented, and quick.
func TestHugeJSONIsPlainAndBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"rows":[`)
	for i := range 3000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":1,"ok":true,"s":"<b>x</b>"}`)
	}
	b.WriteString(`]}`)
	start := time.Now()
	s := views.NewStructuredProps(json.RawMessage(b.String()), nil, false, nil)
	if s.View.Highlighted {
		t.Errorf("a %d-byte view was coloured", len(s.JSON))
	}
	if !s.Cut || len(s.JSON) > views.JSONViewBytes+16 {
		t.Errorf("view: cut %v, %d bytes; want cut at %d", s.Cut, len(s.JSON), views.JSONViewBytes)
	}
	doc := renderComponent(t, "en", views.ContentStructured(*s))
	if doc.Find("b").Length() != 0 || doc.Find(`.hl-nt`).Length() != 0 {
		t.Errorf("plain view holds elements")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	// Just under the cap, colouring stays quick.
	small := `{"s":"` + strings.Repeat("a\\\"b", views.HighlightJSONBytes/5) + `"}`
	start = time.Now()
	s = views.NewStructuredProps(json.RawMessage(small), nil, false, nil)
	if !s.View.Highlighted {
		t.Errorf("a %d-byte view was not coloured", len(s.JSON))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("colouring %d bytes took %v", len(small), d)
	}
}

// TestManyBooleansStayBounded: a list of booleans, whose colouring grows
// most, falls back to plain text before its HTML grows past the cap.
func TestManyBooleansStayBounded(t *testing.T) {
	doc := "[" + strings.Repeat("true,", 5000) + "false]"
	s := views.NewStructuredProps(json.RawMessage(doc), nil, false, nil)
	var html strings.Builder
	for _, p := range s.View.Pieces {
		html.WriteString(p.HTML)
	}
	if html.Len() > views.HighlightHTMLBytes {
		t.Errorf("view HTML: got %d bytes, want at most %d", html.Len(), views.HighlightHTMLBytes)
	}
	items := views.NewContentItems(textResult(t, doc), views.ContentURLs{}, -1)
	if items[0].JSON == nil {
		t.Fatalf("JSON text not shown as JSON")
	}
}

// TestManyBlobsStayBounded: thousands of base64 strings collapse up to
// MaxBlobs, and what they show together stays under its budget.
func TestManyBlobsStayBounded(t *testing.T) {
	long := `"` + strings.Repeat("QUJD", 200) + `"`
	doc := "[" + strings.Repeat(long+",", 3000) + long + "]"
	s := views.NewStructuredProps(json.RawMessage(doc), nil, false, nil)
	n, shown := 0, 0
	for _, p := range s.View.Pieces {
		if p.Blob != nil {
			n++
			shown += len(p.Blob.Head)
		}
	}
	if n != views.MaxBlobs || shown > views.BlobShownBudget {
		t.Errorf("collapsed %d showing %d bytes; want %d showing at most %d", n, shown, views.MaxBlobs, views.BlobShownBudget)
	}
	if !s.Cut || len(s.JSON) > views.JSONViewBytes+16 {
		t.Errorf("view: cut %v, %d bytes", s.Cut, len(s.JSON))
	}
}
