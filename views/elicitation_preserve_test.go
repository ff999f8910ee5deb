package views_test

import (
	"encoding/json"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// question is a form-mode question with the given id.
func question(id string) domain.Elicitation {
	return domain.Elicitation{ID: id, Server: "srv", Mode: domain.ElicitForm, Message: "Why?",
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"reason":{"type":"string"}}}`)}
}

// The card's form is preserved across redraws while the same question
// waits: every redraw names it the same (its id names the question, and
// the ids of its fields and title hang off it), so htmx keeps the live
// form with what the person typed; another question gets another id, so
// htmx drops the old form for it.
func TestElicitationFormIsPreservedWhileTheQuestionIsTheSame(t *testing.T) {
	running := invAt(domain.InvocationRunning, "")
	draw := func(q string) (id string, preserved bool, fieldID, labelledBy string) {
		form := views.NewElicitationFormProps(question(q), views.CardID(views.CardInFeed, running.ID), "/ui/elicitations/"+q)
		card := renderCard(t, running, views.CardInput{Elicitation: form})
		s := card.Find(`[data-testid="elicitation-form"]`)
		if s.Length() != 1 {
			t.Fatalf("forms on the card: got %d, want 1", s.Length())
		}
		_, preserved = s.Attr("hx-preserve")
		return s.AttrOr("id", ""), preserved, s.Find(`input[name="f.reason"]`).AttrOr("id", ""), s.AttrOr("aria-labelledby", "")
	}
	id1, preserved, field1, title1 := draw("q1")
	if !preserved {
		t.Errorf("the card's form has no hx-preserve; a redraw would replace what the person typed")
	}
	if id1 == "" || field1 == "" || title1 == "" {
		t.Fatalf("ids: form %q, field %q, title %q; want all set", id1, field1, title1)
	}
	id2, _, field2, title2 := draw("q1")
	if id2 != id1 || field2 != field1 || title2 != title1 {
		t.Errorf("a redraw of the same question: ids %q %q %q, want %q %q %q", id2, field2, title2, id1, field1, title1)
	}
	other, _, _, _ := draw("q2")
	if other == id1 {
		t.Errorf("another question has the same form id %q; htmx would keep the old question's form", other)
	}
	if views.CardID(views.CardInFeed, running.ID)+"-elicit-q1" != id1 || views.ElicitationFormID(views.CardID(views.CardInFeed, running.ID), "q1") != id1 {
		t.Errorf("form id %q is not ElicitationFormID of the card and the question", id1)
	}
}

// The form an answer draws again (with warnings) is not preserved, or
// htmx would keep the form on the page and the warnings would never show.
func TestElicitationFormWithWarningsIsNotPreserved(t *testing.T) {
	p := views.NewElicitationFormProps(question("q1"), "feed-inv1", "/ui/elicitations/q1")
	p.Preserve, p.AnywayBox = false, true
	p.Warnings = []views.Message{views.ViolationAtMessage(domain.Violation{Pointer: "/reason", Key: "SchemaMinLength", Data: map[string]any{"Count": 3}})}
	doc := renderDrawerPart(t, "en", views.ElicitationForm(p))
	s := doc.Find(`[data-testid="elicitation-form"]`)
	if _, ok := s.Attr("hx-preserve"); ok {
		t.Errorf("the form with warnings has hx-preserve")
	}
	if s.AttrOr("id", "") != "feed-inv1-elicit-q1" {
		t.Errorf("id: got %q, want the same as the form it replaces", s.AttrOr("id", ""))
	}
}

// The drawer's forms are preserved too, so a change in the list of
// questions keeps the ones still waiting as the person left them.
func TestDrawerElicitationFormsArePreserved(t *testing.T) {
	p := views.NewDrawerElicitationsProps([]domain.Elicitation{question("q1"), question("q2")}, func(id string) string { return "/ui/elicitations/" + id })
	doc := renderDrawerPart(t, "en", views.DrawerElicitationsList(p))
	forms := doc.Find(`[data-testid="elicitation-form"]`)
	if forms.Length() != 2 {
		t.Fatalf("forms: got %d, want 2", forms.Length())
	}
	if got := doc.Find(`[data-testid="elicitation-form"][hx-preserve]`).Length(); got != 2 {
		t.Errorf("preserved forms: got %d, want 2", got)
	}
	if a, b := forms.Eq(0).AttrOr("id", ""), forms.Eq(1).AttrOr("id", ""); a == b {
		t.Errorf("two questions share the form id %q", a)
	}
}

// The answer's response announces the outcome through the page's one
// live region, swapping only its content so the region node stays.
func TestElicitationAnsweredAnnouncesTheOutcome(t *testing.T) {
	tests := []struct{ lang, action, want string }{
		{"en", domain.ElicitAccept, "Answer sent to srv"},
		{"en", domain.ElicitDecline, "You declined srv's question"},
		{"en", domain.ElicitCancel, "You dismissed srv's question"},
		{"pt-BR", domain.ElicitDecline, "Você recusou a pergunta de srv"},
		{"zh-Hans", domain.ElicitAccept, "已将回答发送给 srv"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"-"+tt.action, func(t *testing.T) {
			doc := renderDrawerPart(t, tt.lang, views.ElicitationAnswered(views.NewElicitationAnsweredProps("srv", tt.action)))
			oob := doc.Find(`[hx-swap-oob]`)
			if oob.Length() != 1 || oob.AttrOr("hx-swap-oob", "") != "innerHTML:#activity-feed-status" {
				t.Fatalf("got %d out-of-band parts (%q), want one into the live region's content", oob.Length(), oob.AttrOr("hx-swap-oob", ""))
			}
			if got := oob.Text(); got != tt.want {
				t.Errorf("announcement: got %q, want %q", got, tt.want)
			}
		})
	}
}
