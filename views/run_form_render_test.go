package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

const everyKindSchema = `{"type":"object","properties":{
	"message":{"type":"string","description":"Text to send back.","default":"hi"},
	"steps":{"type":"integer","minimum":1,"maximum":20,"default":5},
	"ratio":{"type":"number"},
	"order":{"enum":["asc","desc"]},
	"city":{"enum":["a","b","c","d","e","f"],"default":"c"},
	"force":{"type":"boolean","default":true},
	"filter":{"type":"object"}
},"required":["message","order"]}`

func runFormDoc(t *testing.T, lang string, in views.RunFormInput) *views.RunFormProps {
	t.Helper()
	p := views.NewRunFormProps(in)
	return &p
}

func TestRunFormRendersEachFieldKind(t *testing.T) {
	t.Parallel()
	p := runFormDoc(t, "en", views.RunFormInput{Server: "demo", Action: "/run",
		Tool: domain.Tool{Name: "echo", InputSchema: []byte(everyKindSchema)}})
	doc := renderComponent(t, "en", views.RunForm(*p))
	// Not modal to the page: the drawer it lays over may be a docked
	// column beside the page.
	dlg := doc.Find(`[data-testid="run-form"][role="dialog"][aria-modal="false"]`)
	if dlg.Length() != 1 {
		t.Fatalf("dialog: got %d, want 1", dlg.Length())
	}
	field := func(name string) string { return `[data-testid="run-field"][data-name="` + name + `"]` }
	checks := []struct{ sel, what string }{
		{field("message") + `[data-required="false"] input[type="text"][value="hi"]:not([aria-required])`, "string: text field with its default, required by the schema but not of the person"},
		{field("message") + ` [data-testid="run-hint"]`, "string: says its default"},
		{field("steps") + ` input[type="number"][min="1"][max="20"][step="1"][value="5"]`, "integer: number with bounds"},
		{field("ratio") + ` input[type="number"][step="any"]`, "number: any step"},
		{field("order") + ` fieldset[role="radiogroup"][aria-required="true"] input[type="radio"]`, "small enum: radios"},
		{field("city") + ` select option[selected][value="\"c\""]`, "large enum: select with default"},
		{field("force") + ` input[type="checkbox"][role="switch"][checked]`, "boolean: switch on by default"},
		{field("filter") + ` textarea.run-json`, "object: JSON editor"},
		{`[role="tablist"] [role="tab"][data-testid="run-tab-form"][aria-selected="true"][tabindex="0"]`, "form tab selected"},
		{`[role="tablist"] [role="tab"][data-testid="run-tab-raw"][aria-selected="false"][tabindex="-1"]`, "raw tab not selected"},
		{`[role="tabpanel"][data-testid="run-panel-raw"][hidden] textarea[data-testid="run-raw"]`, "raw panel hidden"},
	}
	for _, c := range checks {
		if doc.Find(c.sel).Length() == 0 {
			t.Errorf("%s: nothing matches %s", c.what, c.sel)
		}
	}
	if got := doc.Find(field("order") + ` input[type="radio"]`).Length(); got != 2 {
		t.Errorf("required enum radios: got %d, want 2 (no 'not set')", got)
	}
	help := doc.Find(field("message") + ` [data-testid="run-help"]`)
	id, _ := help.Attr("id")
	if by, _ := doc.Find(field("message") + ` input`).Attr("aria-describedby"); id == "" || !strings.Contains(by, id) {
		t.Errorf("aria-describedby: got %q, want it to name the help %q", by, id)
	}
	raw := doc.Find(`[data-testid="run-raw"]`).Text()
	if !strings.Contains(raw, `"message": "hi"`) || !strings.Contains(raw, `"steps": 5`) {
		t.Errorf("raw JSON prefilled from defaults: got %q", raw)
	}
}

func TestRunFormShowsErrorsBesideFields(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "pt-BR", "zh-Hans"} {
		p := runFormDoc(t, lang, views.RunFormInput{Server: "demo", Action: "/run",
			Tool:        domain.Tool{Name: "echo", InputSchema: []byte(everyKindSchema)},
			Values:      map[string]string{},
			FieldErrors: map[string][]views.Message{"message": {{ID: "RunErrRequired"}}},
			Summary:     []views.Message{{ID: "RunViolation", Data: map[string]any{"Message": "additional properties 'x' not allowed"}}}})
		doc := renderComponent(t, lang, views.RunForm(*p))
		input := doc.Find(`[data-name="message"] input`)
		if v, _ := input.Attr("aria-invalid"); v != "true" {
			t.Errorf("%s: aria-invalid: got %q, want true", lang, v)
		}
		errEl := doc.Find(`[data-name="message"] [data-testid="run-field-error"]`)
		if errEl.Length() != 1 || strings.TrimSpace(errEl.Text()) == "RunErrRequired" {
			t.Errorf("%s: field error: got %q", lang, errEl.Text())
		}
		if by, _ := input.Attr("aria-describedby"); !strings.Contains(by, errEl.AttrOr("id", "?")) {
			t.Errorf("%s: aria-describedby %q does not name the error", lang, by)
		}
		if got := doc.Find(`[data-testid="run-summary"][role="alert"] [data-testid="run-summary-item"]`).Text(); !strings.Contains(got, "additional properties") {
			t.Errorf("%s: summary: got %q", lang, got)
		}
	}
}

func TestRunFormWithoutSchemaSaysSo(t *testing.T) {
	t.Parallel()
	p := runFormDoc(t, "en", views.RunFormInput{Server: "demo", Tool: domain.Tool{Name: "tiny_image"}})
	doc := renderComponent(t, "en", views.RunForm(*p))
	if doc.Find(`[data-testid="run-no-args"]`).Length() != 1 {
		t.Errorf("no 'takes no arguments' note")
	}
	if got := strings.TrimSpace(doc.Find(`[data-testid="run-raw"]`).Text()); got != "{}" {
		t.Errorf("raw: got %q, want {}", got)
	}
}

func TestRunFormEscapesUntrustedText(t *testing.T) {
	t.Parallel()
	evil := `<img src=x onerror=alert(1)>`
	p := runFormDoc(t, "en", views.RunFormInput{Server: "demo", Tool: domain.Tool{Name: evil, Description: evil,
		InputSchema: []byte(`{"properties":{"` + `<b>x</b>` + `":{"type":"string","description":"<script>alert(1)</script>"}}}`)}})
	doc := renderComponent(t, "en", views.RunForm(*p))
	if doc.Find("img, script, b").Length() != 0 {
		t.Errorf("untrusted markup became elements")
	}
}

// A refused Raw JSON tab keeps the text as typed, even when it is empty,
// lists the violations beside it and offers Send anyway; a tool that may
// run as a task has the box for it.
func TestRunFormRawRefusal(t *testing.T) {
	t.Parallel()
	p := views.NewRunFormProps(views.RunFormInput{Server: "demo", Action: "/run", Mode: views.RunModeRaw, Raw: "",
		Tool:          domain.Tool{Name: "echo", InputSchema: []byte(everyKindSchema), TaskSupport: domain.TaskSupportOptional},
		RawViolations: []views.Message{{ID: "RunViolationAt", Data: map[string]any{"Path": "/order", "Message": "missing"}}},
		SendAnyway:    true, AsTask: true})
	doc := renderComponent(t, "pt-BR", views.RunForm(p))
	if got := doc.Find(`[data-testid="run-raw"]`).Text(); got != "" {
		t.Errorf("raw text: got %q, want what was typed (nothing)", got)
	}
	if got := doc.Find(`[data-testid="run-raw-error"]:not([hidden]) [data-testid="run-raw-violation"]`).Text(); got != "Em /order: missing" {
		t.Errorf("violation beside the raw editor: got %q", got)
	}
	if doc.Find(`[data-testid="run-panel-raw"]:not([hidden])`).Length() != 1 {
		t.Error("the Raw JSON panel is not shown")
	}
	anyway := doc.Find(`[data-testid="run-send-anyway"][type="submit"][name="send_anyway"][value="true"]`)
	if anyway.Length() != 1 || anyway.Text() != "Enviar assim mesmo" {
		t.Errorf("Send anyway: %d %q", anyway.Length(), anyway.Text())
	}
	if note, _ := anyway.Attr("aria-describedby"); doc.Find(`#`+note).Length() != 1 {
		t.Errorf("Send anyway is described by %q, which is not on the page", note)
	}
	if doc.Find(`[data-testid="run-submit"] ~ [data-testid="run-send-anyway"]`).Length() != 1 {
		t.Error("Send anyway comes before Run tool: Enter in a field would send anyway")
	}
	if doc.Find(`[data-testid="run-as-task"][name="as_task"][checked]`).Length() != 1 {
		t.Error("Run as a task box missing or not kept ticked")
	}
}
