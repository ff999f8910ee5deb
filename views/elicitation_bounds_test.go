package views_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// elicitForm renders e's form in lang, as the drawer shows it.
func elicitForm(t *testing.T, lang string, p *views.ElicitationFormProps) *goquery.Selection {
	t.Helper()
	doc := renderComponent(t, lang, views.ElicitationForm(p))
	f := doc.Find(`[data-testid="elicitation-form"]`)
	if f.Length() != 1 {
		t.Fatalf("forms: got %d, want 1", f.Length())
	}
	return f
}

// A short message is shown as a paragraph; a long one whole, in a region
// that scrolls, that a keyboard can focus and a screen reader names; one
// past the bound is cut and says how much of it is shown.
func TestElicitationMessageShownWholeOrSaysItIsCut(t *testing.T) {
	long := strings.Repeat("line of the server's text\n", 800) // ~20 KB
	tests := []struct {
		name         string
		message      string
		bytes        int
		wantRegion   bool
		wantCutLabel string
	}{
		{"short", "Sure?", 5, false, ""},
		{"many-lines", strings.Repeat("x\n", 12), 24, true, ""},
		{"long-whole", long, len(long), true, ""},
		{"cut", strings.Repeat("m", 64<<10), 100000, true, "Message shortened: 65536 of 100000 bytes shown."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := domain.Elicitation{ID: "q", Server: "srv", Mode: domain.ElicitForm, Message: tc.message, MessageBytes: tc.bytes,
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`)}
			f := elicitForm(t, "en", views.NewElicitationFormProps(e, "d", "/ui/elicitations/q"))
			m := f.Find(`[data-testid="elicitation-message"]`)
			if got := m.Text(); got != tc.message {
				t.Errorf("message: got %d bytes, want the %d given", len(got), len(tc.message))
			}
			region := m.AttrOr("role", "") == "region" && m.AttrOr("tabindex", "") == "0" &&
				m.AttrOr("aria-label", "") == "Message from srv" && m.HasClass("elicit-message-scroll")
			if region != tc.wantRegion {
				t.Errorf("scrolling region: got %v, want %v (%s)", region, tc.wantRegion, goquery.NodeName(m))
			}
			if !tc.wantRegion && (m.AttrOr("tabindex", "") != "" || m.AttrOr("role", "") != "") {
				t.Errorf("a short message is a tab stop or a region")
			}
			if got := f.Find(`[data-testid="elicitation-message-cut"]`).Text(); got != tc.wantCutLabel {
				t.Errorf("cut notice: got %q, want %q", got, tc.wantCutLabel)
			}
		})
	}
}

// The cut notice and the region's name are translated.
func TestElicitationMessageCutIsLocalized(t *testing.T) {
	e := domain.Elicitation{ID: "q", Server: "srv", Mode: domain.ElicitForm, Message: strings.Repeat("m", 2000), MessageBytes: 3000}
	for lang, want := range map[string][2]string{
		"pt-BR":   {"Mensagem encurtada: 2000 de 3000 bytes exibidos.", "Mensagem de srv"},
		"zh-Hans": {"消息已截短：显示了 3000 字节中的 2000 字节。", "来自 srv 的消息"},
	} {
		f := elicitForm(t, lang, views.NewElicitationFormProps(e, "d", "/ui/elicitations/q"))
		if got := f.Find(`[data-testid="elicitation-message-cut"]`).Text(); got != want[0] {
			t.Errorf("%s cut notice: got %q, want %q", lang, got, want[0])
		}
		if got := f.Find(`[data-testid="elicitation-message"]`).AttrOr("aria-label", ""); got != want[1] {
			t.Errorf("%s region name: got %q, want %q", lang, got, want[1])
		}
	}
}

// A URL-mode host in other scripts, or in punycode, is shown in Unicode
// with the punycode the browser goes to beside it, which the open button
// names; a plain host is shown once; a host that is no valid
// internationalized name is shown as sent, with a warning.
func TestElicitationURLHostShowsPunycode(t *testing.T) {
	tests := []struct {
		name, url, host, ascii, open string
		invalid                      bool
	}{
		{"ascii", "https://login.example.com/a", "login.example.com", "", "login.example.com", false},
		{"ascii-port", "http://localhost:8080/cb", "localhost:8080", "", "localhost:8080", false},
		{"homograph", "https://gооgle.com/", "gооgle.com", "xn--ggle-55da.com", "xn--ggle-55da.com", false},
		{"percent-encoded", "https://g%D0%BE%D0%BEgle.com/", "gооgle.com", "xn--ggle-55da.com", "xn--ggle-55da.com", false},
		{"unicode-with-port", "https://例え.jp:8443/x", "例え.jp:8443", "xn--r8jz45g.jp:8443", "xn--r8jz45g.jp:8443", false},
		{"punycode-sent", "https://xn--r8jz45g.jp/", "例え.jp", "xn--r8jz45g.jp", "xn--r8jz45g.jp", false},
		{"invalid", "https://ab\u200d.example/", "ab\u200d.example", "", "ab\u200d.example", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := domain.ParseElicitation("srv", json.RawMessage(`{"mode":"url","url":"`+tc.url+`"}`))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			p := views.NewElicitationFormProps(e, "d", "/ui/elicitations/q")
			if p.Host != tc.host || p.HostASCII != tc.ascii || p.HostInvalid != tc.invalid {
				t.Errorf("got host %q, ascii %q, invalid %v; want %q, %q, %v", p.Host, p.HostASCII, p.HostInvalid, tc.host, tc.ascii, tc.invalid)
			}
			f := elicitForm(t, "en", p)
			if got := f.Find(`[data-testid="elicitation-host"]`).Text(); got != "The server asks you to open a page on "+tc.host {
				t.Errorf("host line: got %q", got)
			}
			asc := f.Find(`[data-testid="elicitation-host-ascii"]`)
			if (asc.Length() == 1) != (tc.ascii != "") || (tc.ascii != "" && !strings.Contains(asc.Text(), tc.ascii)) {
				t.Errorf("punycode line: got %q, want one naming %q", asc.Text(), tc.ascii)
			}
			if got := f.Find(`[data-testid="elicitation-host-invalid"]`).Length() == 1; got != tc.invalid {
				t.Errorf("invalid-host warning: got %v, want %v", got, tc.invalid)
			}
			if got := f.Find(`[data-testid="elicitation-open"]`).Text(); got != "Open "+tc.open+" in a new tab" {
				t.Errorf("open button: got %q", got)
			}
		})
	}
}

// A server's pattern never reaches the page; a field whose answer broke
// it says so, next to it and in the form's alert, and is marked invalid.
func TestElicitationPatternStaysOffThePage(t *testing.T) {
	e := domain.Elicitation{ID: "q", Server: "srv", Mode: domain.ElicitForm, RequestedSchema: json.RawMessage(`{"type":"object","properties":{
		"code":{"type":"string","title":"Code","pattern":"^(a+)+$","description":"Your code"},
		"name":{"type":"string","pattern":"^x$"}}}`)}
	p := views.NewElicitationFormProps(e, "d", "/ui/elicitations/q")
	if p.Fields[0].Pattern != "^(a+)+$" {
		t.Errorf("field pattern: got %q; the handler checks it", p.Fields[0].Pattern)
	}
	f := elicitForm(t, "en", p)
	if n := f.Find(`[pattern]`).Length(); n != 0 {
		t.Errorf("%d elements carry the server's pattern", n)
	}
	if f.Find(`[data-testid="elicitation-pattern-warning"]`).Length() != 0 || f.Find(`[data-testid="elicitation-warnings"]`).Length() != 0 {
		t.Errorf("warnings before any answer")
	}

	if !views.MarkPatternMismatches(p.Fields, []string{"code"}) {
		t.Fatal("MarkPatternMismatches flagged nothing")
	}
	f = elicitForm(t, "en", p)
	in := f.Find(`input[name="f.code"]`)
	w := f.Find(`[data-testid="elicitation-pattern-warning"]`)
	if w.Length() != 1 || w.Text() != "Does not match the expected pattern." {
		t.Fatalf("pattern warnings: got %d %q, want one", w.Length(), w.Text())
	}
	if got, want := in.AttrOr("aria-describedby", ""), w.AttrOr("id", "")+" "+in.AttrOr("id", "")+"-desc"; got != want {
		t.Errorf("aria-describedby: got %q, want %q", got, want)
	}
	if in.AttrOr("aria-invalid", "") != "true" || f.Find(`input[name="f.name"]`).AttrOr("aria-invalid", "") != "" {
		t.Errorf("aria-invalid: code %q, name %q; want only code", in.AttrOr("aria-invalid", ""), f.Find(`input[name="f.name"]`).AttrOr("aria-invalid", ""))
	}
	if got := f.Find(`[data-testid="elicitation-warnings"] li`).Text(); got != "Code: does not match the expected pattern" {
		t.Errorf("alert: got %q", got)
	}
	f = elicitForm(t, "pt-BR", p)
	if got := f.Find(`[data-testid="elicitation-pattern-warning"]`).Text(); got != "Não corresponde ao padrão esperado." {
		t.Errorf("pt-BR warning: got %q", got)
	}
}
