package views_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// Cards made in sequence share the start of their ids; two of them in the
// drawer must still have different names, or axe's landmark-unique fails
// and a screen reader cannot tell the regions apart.
func TestCardNamesDifferForIDsWithACommonStart(t *testing.T) {
	a, b := invAt(domain.InvocationSuccess, ""), invAt(domain.InvocationSuccess, "")
	a.ID, b.ID = "5ca1e0000000000000000000101", "5ca1e0000000000000000000102"
	la := renderCard(t, a, views.CardInput{Place: views.CardInDrawer}).AttrOr("aria-label", "")
	lb := renderCard(t, b, views.CardInput{Place: views.CardInDrawer}).AttrOr("aria-label", "")
	if la == lb {
		t.Errorf("two drawer cards share the name %q", la)
	}
}

// The call list's cards say they are in the call list, in every language.
func TestCardInCallListIsNamedSo(t *testing.T) {
	want := map[string]string{"en": "in the call list", "pt-BR": "na lista de chamadas", "zh-Hans": "调用列表中"}
	for lang, w := range want {
		doc := renderDrawerPart(t, lang, views.InvocationCard(views.NewInvocationCardProps(invAt(domain.InvocationSuccess, ""), views.CardInput{Place: views.CallCardPlace, URLs: invURLs})))
		got := doc.Find(`[data-testid="invocation-card"]`).AttrOr("aria-label", "")
		if !strings.Contains(got, w) || strings.Contains(got, "history") {
			t.Errorf("%s: got %q, want it to contain %q", lang, got, w)
		}
	}
}

// Each action's accessible name holds its visible text (axe's
// label-content-name-mismatch), so a person using speech input can say
// what they see.
func TestCardActionNamesHoldTheirVisibleText(t *testing.T) {
	cat, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "pt-BR", "zh-Hans"} {
		ctx := locales.WithLocalizer(context.Background(), cat.Localizer(lang))
		ctx = views.WithLinks(ctx, views.Links{RunForm: func(server, tool string) string { return "/run/" + server + "/" + tool }})
		var buf bytes.Buffer
		p := views.NewInvocationCardProps(invAt(domain.InvocationSuccess, ""), views.CardInput{URLs: invURLs})
		if err := views.InvocationCard(p).Render(ctx, &buf); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(&buf)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"invocation-retry", "invocation-edit-rerun"} {
			b := doc.Find(`[data-testid="` + id + `"]`)
			if b.Length() != 1 {
				t.Fatalf("%s %s: got %d buttons", lang, id, b.Length())
			}
			text, name := strings.TrimSpace(b.Text()), b.AttrOr("aria-label", "")
			if text == "" || !strings.HasPrefix(name, text) {
				t.Errorf("%s %s: name %q does not start with its text %q", lang, id, name, text)
			}
		}
	}
}
