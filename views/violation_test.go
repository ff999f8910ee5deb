package views_test

import (
	"context"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// violations are a rule the validator named and one it did not (or that
// was stored before it named rules); both carry its English.
var violations = []domain.Violation{
	{Pointer: "/n", Message: "minimum: got 1, want 5", Key: "SchemaMinimum", Data: map[string]any{"Limit": "5"}},
	{Pointer: "/tags", Message: "minItems: got 1, want 3", Key: "SchemaMinItems", Data: map[string]any{"Count": 3}},
	{Pointer: "/q", Message: "jsonschema said something in English"},
}

// Every place that lists violations says them in the page's language,
// with their values and places, and never the validator's English.
func TestViolationsAreSaidInThePagesLanguage(t *testing.T) {
	for lang, want := range map[string][]string{
		"en": {"At /n: Must be at least 5", "At /tags: Must have at least 3 items", "At /q: Does not match the schema"},
		"de": {"Bei /n: Muss mindestens 5 sein", "Bei /tags: Muss mindestens 3 Einträge haben", "Bei /q: Entspricht nicht dem Schema"},
		"ar": {"عند /n: يجب ألا يقل عن 5", "عند /tags: يجب أن يحتوي على ٣ عناصر على الأقل", "عند /q: لا يطابق المخطط"},
	} {
		notes := views.NewArgsNotesProps(domain.Invocation{Mismatch: violations})
		structured := views.NewStructuredProps([]byte(`{"n":1}`), violations, true, nil)
		form := views.NewElicitationFormProps(question("q1"), "feed-inv1", "/ui/elicitations/q1")
		for _, v := range violations {
			form.Warnings = append(form.Warnings, views.ViolationAtMessage(v))
		}
		for place, text := range map[string]string{
			"card notes":       renderDrawerPart(t, lang, views.InvocationArgsNotes(notes)).Text(),
			"structured":       renderDrawerPart(t, lang, views.ContentStructured(*structured)).Text(),
			"elicitation form": renderDrawerPart(t, lang, views.ElicitationForm(form)).Text(),
		} {
			text = unisolated(text)
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("%s, %s: %q lacks %q", lang, place, text, w)
				}
			}
			for _, v := range violations {
				if strings.Contains(text, v.Message) {
					t.Errorf("%s, %s: shows the validator's English %q", lang, place, v.Message)
				}
			}
		}
	}
}

// The run form's messages hold a violation's message inside their own
// ("At /n: …"): both are said in the page's language.
func TestMsgTextTranslatesNestedMessages(t *testing.T) {
	cat, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"Path": "/n", "Message": views.ViolationMessage(violations[0])}
	m := views.Message{ID: "RunViolationAt", Data: data}
	for lang, want := range map[string]string{"de": "Bei /n: Muss mindestens 5 sein", "ar": "عند /n: يجب ألا يقل عن 5"} {
		ctx := locales.WithLocalizer(context.Background(), cat.Localizer(lang))
		if got := unisolated(views.MsgText(ctx, m)); got != want {
			t.Errorf("%s: got %q, want %q", lang, got, want)
		}
	}
	if _, ok := data["Message"].(views.Message); !ok {
		t.Error("MsgText wrote to the message's data, which renders share")
	}
}
