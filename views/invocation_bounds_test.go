package views_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// maxCardHTML is the most HTML one card may be, whatever the call held.
const maxCardHTML = 1 << 20

var boundURLs = views.CardURLs{
	Copy: func(part string) string { return "/copy?part=" + part },
	Raw:  func(part string) string { return "/copy?part=" + part + "&download=1" },
	Stop: "/stop", Retry: "/retry",
	Item: func(i int) string { return fmt.Sprintf("/item?i=%d", i) },
	Read: func(uri string) string { return "/read?uri=" + uri },
}

func renderHTML(t testing.TB, lang string, c templ.Component) []byte {
	t.Helper()
	cat, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Render(locales.WithLocalizer(context.Background(), cat.Localizer(lang)), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	return buf.Bytes()
}

func parseHTML(t testing.TB, html []byte) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(html))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func boundInv(args, result string) domain.Invocation {
	inv := invAt(domain.InvocationSuccess, result)
	inv.Arguments = json.RawMessage(args)
	return inv
}

func deepObject(depth int) string {
	return strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
}

// TestJSONViewMatchesIndent: below every cap, the bounded JSON view is
// exactly what json.Indent with two spaces prints.
func TestJSONViewMatchesIndent(t *testing.T) {
	docs := []string{
		`{"message":"hi","n":2}`,
		`{}`,
		`{"a":[],"b":{},"c":[{}],"d":[[]]}`,
		`{ "spaced" :  [ 1 , 2 ,3 ] ,"x":null }`,
		`{"s":"brackets [{ and \"quotes\" and \\ inside","u":"日本語 ✓","e":-1.5e+10}`,
		`{"list":[` + strings.Repeat(`[1,"two",true,false,null],`, 40) + `[0]]}`,
		`{"deep":` + deepObject(63) + `}`,
	}
	for i, doc := range docs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			var want bytes.Buffer
			if err := json.Indent(&want, []byte(doc), "", "  "); err != nil {
				t.Fatal(err)
			}
			p := views.NewInvocationCardProps(boundInv(doc, `{"content":[],"structuredContent":`+doc+`}`), views.CardInput{URLs: boundURLs})
			if p.ArgsJSON != want.String() || p.ArgsCut {
				t.Errorf("arguments: got %q (cut %v), want %q", p.ArgsJSON, p.ArgsCut, want.String())
			}
			if p.Structured == nil || p.Structured.JSON != want.String() || p.Structured.Cut {
				t.Errorf("structured: got %+v, want %q", p.Structured, want.String())
			}
		})
	}
}

// TestJSONViewCaps: each cap cuts the view, says so, and keeps it small.
func TestJSONViewCaps(t *testing.T) {
	wide := "[" + strings.Repeat("1,", 5000) + "1]"
	tests := []struct {
		name     string
		doc      string
		contains string
		maxLen   int
	}{
		{"depth", deepObject(5000), `"a": {…}`, 16 << 10},
		{"depth-arrays", strings.Repeat("[", 9000) + strings.Repeat("]", 9000), `[…]`, 16 << 10},
		{"members", `{"w":` + wide + `}`, "    1,\n    …\n  ]\n}", 16 << 10},
		{"bytes", `{"s":"` + strings.Repeat("x", 1<<20) + `"}`, "xxx…", views.JSONViewBytes + 8},
		{"not-json", `{"s":"` + strings.Repeat("x", 1<<20), "xxx…", views.JSONViewBytes + 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewInvocationCardProps(boundInv(tt.doc, `{"content":[],"structuredContent":{"ok":true}}`), views.CardInput{URLs: boundURLs})
			if !p.ArgsCut {
				t.Errorf("ArgsCut: got false, want true")
			}
			if len(p.ArgsJSON) > tt.maxLen {
				t.Errorf("argument view: got %d bytes, want at most %d", len(p.ArgsJSON), tt.maxLen)
			}
			if !strings.Contains(p.ArgsJSON, tt.contains) {
				t.Errorf("argument view lacks %q: ...%q", tt.contains, p.ArgsJSON[max(0, len(p.ArgsJSON)-200):])
			}
			if p.RawArgsURL != "/copy?part=arguments&download=1" {
				t.Errorf("RawArgsURL: got %q", p.RawArgsURL)
			}
		})
	}
}

// TestArgsFormViewCaps: the read-only form lists at most MaxArgFields
// arguments and cuts long values, and says it did.
func TestArgsFormViewCaps(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"long":"` + strings.Repeat("y", 1<<20) + `"`)
	for i := range 300 {
		fmt.Fprintf(&b, `,"k%03d":%d`, i, i)
	}
	b.WriteString("}")
	p := views.NewInvocationCardProps(boundInv(b.String(), ""), views.CardInput{URLs: boundURLs})
	if len(p.ArgsFields) != views.MaxArgFields || !p.ArgsCut {
		t.Errorf("form view: got %d fields (cut %v), want %d and cut", len(p.ArgsFields), p.ArgsCut, views.MaxArgFields)
	}
	for _, f := range p.ArgsFields {
		if len(f.Value) > views.ArgValueBytes+len("…") {
			t.Errorf("field %s: got %d bytes, want at most %d", f.Name, len(f.Value), views.ArgValueBytes)
		}
	}
	html := renderHTML(t, "en", views.InvocationCard(p))
	if len(html) > maxCardHTML {
		t.Errorf("card: got %d bytes of HTML, want at most %d", len(html), maxCardHTML)
	}
	notice := parseHTML(t, html).Find(`[data-testid="invocation-args"] [data-testid="content-too-large"] a`)
	if href, _ := notice.Attr("href"); href != "/copy?part=arguments&download=1" {
		t.Errorf("arguments download link: got %q", href)
	}
}

func textItems(n int, text func(i int) string) string {
	var b strings.Builder
	b.WriteString(`{"content":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		t, _ := json.Marshal(text(i))
		b.WriteString(`{"type":"text","text":`)
		b.Write(t)
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestCardHTMLBounds renders the cards that once grew to tens of
// megabytes and checks each stays under maxCardHTML and says what it left
// out, with the raw download.
func TestCardHTMLBounds(t *testing.T) {
	tests := []struct {
		name   string
		result string
		check  func(t *testing.T, doc *goquery.Document)
	}{
		{"structured-5000-deep", `{"content":[],"structuredContent":` + deepObject(5000) + `}`, func(t *testing.T, doc *goquery.Document) {
			pre := doc.Find(`[data-testid="content-structured"]`)
			if !strings.Contains(pre.Text(), "{…}") {
				t.Errorf("structured view does not end its nesting with {…}")
			}
			tooLarge(t, doc.Find(`.content-structured-wrap`), "/copy?part=result&download=1")
		}},
		{"100000-items", textItems(100_000, func(i int) string { return fmt.Sprintf("item %d", i) }), func(t *testing.T, doc *goquery.Document) {
			if n := doc.Find(`[data-testid="content-item"]`).Length(); n != views.MaxContentItems {
				t.Errorf("items shown: got %d, want %d", n, views.MaxContentItems)
			}
			more := doc.Find(`[data-testid="content-more-items"]`)
			if got := strings.TrimSpace(more.Text()); !strings.HasPrefix(got, "99,900 more items not shown.") {
				t.Errorf("more items: got %q", got)
			}
			if href, _ := more.Find("a[download]").Attr("href"); href != "/copy?part=result&download=1" {
				t.Errorf("more items download: got %q", href)
			}
		}},
		{"10MB-text", textItems(1, func(int) string { return strings.Repeat("ten megabytes of text. ", 10<<20/23) }), func(t *testing.T, doc *goquery.Document) {
			if doc.Find(`[data-testid="content-show-full"]`).Length() != 1 {
				t.Errorf("no Show the full text on a 10 MB text")
			}
		}},
		{"100-items-of-64KB", textItems(100, func(int) string { return strings.Repeat("abcdefgh ", 8000) }), func(t *testing.T, doc *goquery.Document) {
			if n := doc.Find(`[data-testid="content-show-full"]`).Length(); n != 100 {
				t.Errorf("Show the full text: got %d buttons, want one per clipped item (100)", n)
			}
			if doc.Find(`[data-testid="content-more-items"]`).Length() != 0 {
				t.Errorf("a more-items notice with nothing left out")
			}
		}},
		{"markdown-bomb", textItems(2, func(int) string { return strings.Repeat(">", 64<<10) }), func(t *testing.T, doc *goquery.Document) {
			if doc.Find(`[data-testid="content-text"] blockquote`).Length() != 0 {
				t.Errorf("nested quotes rendered as HTML, want plain text")
			}
		}},
		{"unknown-items", `{"content":[` + strings.Repeat(`{"type":"future","v":`+deepObject(3000)+`},`, 20) + `{"type":"text","text":"end"}]}`, func(t *testing.T, doc *goquery.Document) {
			tooLarge(t, doc.Find(`[data-testid="content-item"][data-type="unknown"]`).First(), "/copy?part=result&download=1")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewInvocationCardProps(invAt(domain.InvocationSuccess, tt.result), views.CardInput{URLs: boundURLs})
			html := renderHTML(t, "en", views.InvocationCard(p))
			t.Logf("%d bytes of result, %d bytes of card", len(tt.result), len(html))
			if len(html) > maxCardHTML {
				t.Errorf("card: got %d bytes of HTML, want at most %d", len(html), maxCardHTML)
			}
			tt.check(t, parseHTML(t, html))
		})
	}
}

func tooLarge(t *testing.T, in *goquery.Selection, href string) {
	t.Helper()
	n := in.Find(`[data-testid="content-too-large"]`)
	if n.Length() != 1 {
		t.Fatalf("too-large notices: got %d, want 1", n.Length())
	}
	if got := strings.TrimSpace(n.Text()); got != "Too large to show — download raw" {
		t.Errorf("notice: got %q", got)
	}
	if got, _ := n.Find("a[download]").Attr("href"); got != href {
		t.Errorf("notice link: got %q, want %q", got, href)
	}
}

// TestBoundNoticesLocalized: the notices read in each language.
func TestBoundNoticesLocalized(t *testing.T) {
	result := `{"content":[` + strings.Repeat(`{"type":"text","text":"x"},`, 101) + `{"type":"text","text":"x"}],"structuredContent":` + deepObject(100) + `}`
	p := views.NewInvocationCardProps(invAt(domain.InvocationSuccess, result), views.CardInput{URLs: boundURLs})
	for lang, want := range map[string][2]string{
		"en":      {"Too large to show — download raw", "2 more items not shown."},
		"pt-BR":   {"Grande demais para mostrar — baixar o original", "Mais 2 itens não mostrados."},
		"zh-Hans": {"内容过大，无法显示 — 下载原始数据", "另有 2 项未显示。"},
	} {
		doc := parseHTML(t, renderHTML(t, lang, views.InvocationCard(p)))
		if got := strings.TrimSpace(doc.Find(`[data-testid="content-too-large"]`).Text()); got != want[0] {
			t.Errorf("%s too large: got %q, want %q", lang, got, want[0])
		}
		if got := doc.Find(`[data-testid="content-more-items"]`).Text(); !strings.HasPrefix(strings.TrimSpace(got), want[1]) {
			t.Errorf("%s more items: got %q, want %q…", lang, got, want[1])
		}
	}
}

// BenchmarkDeepStructuredCard renders the card of a result nested 5000
// deep, which once took 50 MB of HTML.
func BenchmarkDeepStructuredCard(b *testing.B) {
	inv := invAt(domain.InvocationSuccess, `{"content":[],"structuredContent":`+deepObject(5000)+`}`)
	for b.Loop() {
		p := views.NewInvocationCardProps(inv, views.CardInput{URLs: boundURLs})
		_ = renderHTML(b, "en", views.InvocationCard(p))
	}
}

// TestMarkdownNestingFallsBack: text whose lines open dozens of quotes or
// list items is shown as written, quickly; ordinary nesting still renders.
func TestMarkdownNestingFallsBack(t *testing.T) {
	tests := []struct {
		name, text string
		rendered   bool
	}{
		{"quotes", strings.Repeat(">", 64<<10), false},
		{"spaced-quotes", strings.Repeat("> ", 32<<10), false},
		{"ordered-lists", strings.Repeat("1. ", 20<<10), false},
		{"bullets-on-a-later-line", "fine\n" + strings.Repeat("- ", 40) + "x", false},
		{"a-few-levels", "> quoted\n> > twice\n\n- a\n  - b\n    1. c", true},
		{"thirty-two-levels", strings.Repeat("> ", 32) + "deep", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewInvocationCardProps(invAt(domain.InvocationSuccess, textItems(1, func(int) string { return tt.text })), views.CardInput{URLs: boundURLs})
			it := p.Items[0]
			if got := it.HTML != ""; got != tt.rendered {
				t.Errorf("rendered as Markdown: got %v, want %v (code %d bytes)", got, tt.rendered, len(it.Code))
			}
		})
	}
}
