package views_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestCardMarksDefaultsAndMismatch(t *testing.T) {
	inv := invAt(domain.InvocationSuccess, `{"content":[]}`)
	inv.Defaults = []string{"/scale", "/opts/a~1b"}
	inv.Mismatch = []domain.Violation{
		{Pointer: "/thoughtNumber", Message: "got string, want integer", Key: "SchemaTypeInteger"},
		{Message: "missing property '<b>root</b>'", Key: "SchemaRequired", Data: map[string]any{"Names": "<b>root</b>", "Count": 1}},
	}
	card := renderCard(t, inv, views.CardInput{})

	var names []string
	card.Find(`[data-testid="invocation-default"]`).Each(func(_ int, s *goquery.Selection) { names = append(names, s.Text()) })
	if strings.Join(names, ",") != "scale,opts.a/b" {
		t.Errorf("defaults: got %q, want scale and opts.a/b", names)
	}
	if got := card.Find(`[data-testid="invocation-defaults"]`).Text(); !strings.Contains(got, "Filled from the tool's defaults") {
		t.Errorf("defaults line: got %q", got)
	}
	warn := card.Find(`[data-testid="invocation-mismatch"]`)
	if warn.AttrOr("role", "") != "note" {
		t.Errorf("mismatch role: got %q, want note (it must not interrupt like an alert)", warn.AttrOr("role", ""))
	}
	items := warn.Find(`[data-testid="invocation-mismatch-item"]`)
	if items.Length() != 2 || items.First().Text() != "At /thoughtNumber: Must be a whole number" ||
		items.Last().Text() != "Missing required property: <b>root</b>" {
		t.Errorf("mismatch items: got %d %q", items.Length(), items.Text())
	}
	if warn.Find("b").Length() != 0 {
		t.Error("a validator's message was rendered as markup")
	}

	plain := renderCard(t, invAt(domain.InvocationSuccess, `{"content":[]}`), views.CardInput{})
	if n := plain.Find(`[data-testid="invocation-args-notes"]`).Length(); n != 0 {
		t.Errorf("a call with nothing to note shows %d notes", n)
	}
}

func TestArgsNotesInEveryLanguage(t *testing.T) {
	inv := domain.Invocation{Defaults: []string{"/scale"}, Mismatch: []domain.Violation{{Pointer: "/n", Message: "x"}}}
	for lang, want := range map[string][]string{
		"en":      {"Filled from the tool's default:", "Sent although"},
		"pt-BR":   {"Preenchido com o valor padrão", "Enviado embora"},
		"zh-Hans": {"默认值", "仍已发送"},
	} {
		doc := renderDrawerPart(t, lang, views.InvocationArgsNotes(views.NewArgsNotesProps(inv)))
		text := doc.Text()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q lacks %q", lang, text, w)
			}
		}
	}
}
