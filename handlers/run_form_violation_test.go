package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// The validator's refusals are said in the page's language, beside the
// field or the raw editor, never in the validator's English.
func TestRunFormSaysViolationsInThePagesLanguage(t *testing.T) {
	f, _ := runFixture(t)
	for _, tt := range []struct{ lang, field, raw string }{
		{"de", "Darf höchstens 20 sein", "Bei /message: Muss ein Text sein"},
		{"ar", "يجب ألا يزيد على 20", "عند /message: يجب أن يكون نصًا"},
	} {
		r := f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"),
			url.Values{"mode": {"form"}, "arg.message": {"x"}, "arg.steps": {"99"}}, tt.lang)
		if got := r.doc.Find(`[data-name="steps"] [data-testid="run-field-error"]`).Text(); !strings.Contains(strings.NewReplacer("\u2068", "", "\u2069", "").Replace(got), tt.field) || strings.Contains(got, "maximum") {
			t.Errorf("%s: beside steps: got %q, want %q", tt.lang, got, tt.field)
		}
		r = f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"),
			url.Values{"mode": {"raw"}, "raw": {`{"message": 3}`}}, tt.lang)
		if got := strings.NewReplacer("\u2068", "", "\u2069", "").Replace(r.doc.Find(`[data-testid="run-raw-violation"]`).Text()); got != tt.raw {
			t.Errorf("%s: beside the raw editor: got %q, want %q", tt.lang, got, tt.raw)
		}
	}
}
