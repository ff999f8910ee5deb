package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/PuerkitoBio/goquery"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/jsonschema"
)

const runSchema = `{"type":"object","properties":{
	"message":{"type":"string","description":"Text to send back."},
	"steps":{"type":"integer","minimum":1,"maximum":20,"default":5},
	"ratio":{"type":"number"},
	"order":{"enum":["asc","desc"]},
	"force":{"type":"boolean","default":false},
	"filter":{"type":"object"}
},"required":["message"]}`

// runFixture is a connected server "demo" with one tool "echo" whose
// calls are reported on calls, behind handlers with a real validator.
func runFixture(t *testing.T) (*fixture, chan json.RawMessage) {
	t.Helper()
	f, _, calls := runFixtureSession(t)
	return f, calls
}

// runFixtureSession is runFixture with the demo server's session, for a
// test that loses the connection.
func runFixtureSession(t *testing.T) (*fixture, *domaintest.Session, chan json.RawMessage) {
	t.Helper()
	var f *fixture
	f = newFixture(t, func(o *handlers.Options) {
		o.Scope = domain.Scope{User: domain.LocalUser, Workspace: "test"}
		o.Invocations = domain.NewInvocations(domain.InvocationsOptions{Caller: o.Fleet, Catalog: o.Fleet,
			Store: domaintest.NewInvocationStore(), Validator: jsonschema.New()})
	})
	sess := f.connect(t, stdio("demo"), domain.Capabilities{Tools: []domain.Tool{
		{Name: "echo", InputSchema: []byte(runSchema)},
		{Name: "noargs"},
	}})
	calls := make(chan json.RawMessage, 4)
	sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		calls <- args
		return json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`), nil
	})
	return f, sess, calls
}

// TestRunButtonLoadsTheRunForm: the drawer's Run button points at the
// route that serves the form, through the links the handlers pass views.
func TestRunButtonLoadsTheRunForm(t *testing.T) {
	f, _ := runFixture(t)
	status, body := f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "demo"), nil)
	if status != http.StatusOK {
		t.Fatalf("drawer: %d", status)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := doc.Find(`[data-testid="tool-run"][data-tool="echo"]`).Attr("hx-get")
	if want := handlers.RunFormPath("demo", "echo"); got != want {
		t.Errorf("Run button loads %q, want %q", got, want)
	}
}

func TestRunFormShowsTheToolsFields(t *testing.T) {
	f, _ := runFixture(t)
	r := f.ui(t, http.MethodGet, handlers.RunFormPath("demo", "echo"), nil, "en")
	if r.status != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body: %s", r.status, r.body)
	}
	for _, name := range []string{"message", "steps", "ratio", "order", "force", "filter"} {
		if r.doc.Find(`[data-testid="run-field"][data-name="`+name+`"]`).Length() != 1 {
			t.Errorf("field %s: missing", name)
		}
	}
	if got := r.doc.Find(`form`).AttrOr("hx-post", ""); got != handlers.RunFormPath("demo", "echo") {
		t.Errorf("hx-post: got %q", got)
	}
}

func TestRunFormStartsCallWithCoercedTypes(t *testing.T) {
	f, calls := runFixture(t)
	form := url.Values{"mode": {"form"}, "arg.message": {"hello"}, "arg.steps": {"7"}, "arg.ratio": {"0.5"},
		"arg.order": {`"desc"`}, "arg.filter": {`{"tags": ["a"]}`}}
	r := f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"), form, "en")
	if r.status != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body: %s", r.status, r.body)
	}
	// The form stays as sent, with a slot under it for the call's card.
	if got := r.doc.Find(`[data-testid="run-form"] [data-testid="run-card-slot"]`).AttrOr("data-invocation", ""); got == "" {
		t.Errorf("no slot for the started call's card; body: %s", r.body)
	}
	if got := r.doc.Find(`[data-testid="run-field"][data-name="message"] input`).AttrOr("value", ""); got != "hello" {
		t.Errorf("form after Run: message %q, want hello as sent", got)
	}
	if got := r.doc.Find(`[hx-swap-oob]`).Text(); !strings.Contains(got, "echo") {
		t.Errorf("confirmation: got %q", got)
	}
	got := <-calls
	want := `{"message":"hello","steps":7,"ratio":0.5,"order":"desc","force":false,"filter":{"tags":["a"]}}`
	if string(got) != want {
		t.Errorf("arguments: got %s, want %s", got, want)
	}
	ck := cookieNamed(r.header, "sb_conversation")
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || len(ck.Value) != 32 || ck.MaxAge != 0 {
		t.Errorf("conversation cookie: got %+v, want a random HttpOnly SameSite=Strict session cookie", ck)
	}
}

func TestRunFormRawJSON(t *testing.T) {
	f, calls := runFixture(t)
	r := f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"),
		url.Values{"mode": {"raw"}, "raw": {`{"message": "raw", "steps": 2}`}}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body: %s", r.status, r.body)
	}
	// force was left out and has a default: it is filled in and sent.
	if got := <-calls; string(got) != `{"message":"raw","steps":2,"force":false}` {
		t.Errorf("arguments: got %s", got)
	}
	r = f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"), url.Values{"mode": {"raw"}, "raw": {`{"message": `}}, "en")
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("status: got %d, want 422", r.status)
	}
	if got := r.doc.Find(`[data-testid="run-raw-error"]`).Text(); !strings.Contains(got, "JSON object") {
		t.Errorf("raw error: got %q", got)
	}
	if got := r.doc.Find(`[data-testid="run-raw"]`).AttrOr("aria-invalid", ""); got != "true" {
		t.Errorf("raw aria-invalid: got %q, want true", got)
	}
	if got := r.doc.Find(`[data-testid="run-tab-raw"]`).AttrOr("aria-selected", ""); got != "true" {
		t.Errorf("raw tab stays selected: got %q", got)
	}
}

func TestRunFormRefusesInvalidArgumentsBesideFields(t *testing.T) {
	f, _ := runFixture(t)
	for _, tt := range []struct{ lang, required, integer string }{
		{"en", "This field is required.", "Enter a whole number."},
		{"pt-BR", "Este campo é obrigatório.", "Informe um número inteiro."},
		{"zh-Hans", "此字段为必填项。", "请输入整数。"},
	} {
		r := f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"),
			url.Values{"mode": {"form"}, "arg.steps": {"many"}}, tt.lang)
		if r.status != http.StatusUnprocessableEntity {
			t.Fatalf("%s: status: got %d, want 422", tt.lang, r.status)
		}
		if got := r.doc.Find(`[data-name="message"] [data-testid="run-field-error"]`).Text(); !strings.Contains(got, tt.required) {
			t.Errorf("%s: message error: got %q, want %q", tt.lang, got, tt.required)
		}
		if got := r.doc.Find(`[data-name="steps"] [data-testid="run-field-error"]`).Text(); !strings.Contains(got, tt.integer) {
			t.Errorf("%s: steps error: got %q, want %q", tt.lang, got, tt.integer)
		}
		if got := r.doc.Find(`[data-name="steps"] input`).AttrOr("value", ""); got != "many" {
			t.Errorf("%s: steps keeps what was typed: got %q", tt.lang, got)
		}
		if got := r.doc.Find(`html`).AttrOr("lang", ""); got != "" && got != tt.lang {
			t.Errorf("%s: lang %q", tt.lang, got)
		}
	}
	// The validator's own refusal (steps above maximum) lands beside steps.
	r := f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"),
		url.Values{"mode": {"form"}, "arg.message": {"x"}, "arg.steps": {"99"}}, "en")
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("status: got %d, want 422; body: %s", r.status, r.body)
	}
	if got := r.doc.Find(`[data-name="steps"] [data-testid="run-field-error"]`).Text(); !strings.Contains(got, "20") {
		t.Errorf("schema violation beside steps: got %q", got)
	}
	// Raw JSON with a wrong type is refused beside the raw editor, which
	// stays shown, not beside a field on the hidden Form tab.
	r = f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"),
		url.Values{"mode": {"raw"}, "raw": {`{"message": 3}`}}, "en")
	if got := r.doc.Find(`[data-testid="run-raw-violation"]`).Text(); r.status != http.StatusUnprocessableEntity || !strings.Contains(got, "/message") {
		t.Errorf("raw type violation: status %d, beside the raw editor %q", r.status, got)
	}
	if n := r.doc.Find(`[data-testid="run-field-error"]`).Length(); n != 0 {
		t.Errorf("raw refusal: %d errors on the hidden Form tab, want none", n)
	}
}

func TestRunFormToasts(t *testing.T) {
	f, _ := runFixture(t)
	r := f.ui(t, http.MethodGet, handlers.RunFormPath("demo", "nope"), nil, "en")
	wantToast(t, r, http.StatusNotFound, "not_found", "no longer offers")
	r = f.ui(t, http.MethodPost, handlers.RunFormPath("ghost", "echo"), url.Values{}, "pt-BR")
	wantToast(t, r, http.StatusNotFound, "not_found", "ghost")
}

func cookieNamed(h http.Header, name string) *http.Cookie {
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func TestRunFormRefusesADisabledServer(t *testing.T) {
	f, _ := runFixture(t)
	if _, err := f.fleet.Disable(t.Context(), "demo"); err != nil {
		t.Fatalf("disable: %v", err)
	}
	waitFor(t, f.fleet.Hub(), "demo", "disabled", func(s domain.Status) bool { return s.State == domain.StateDisabled })
	r := f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"), url.Values{"arg.message": {"x"}}, "en")
	wantToast(t, r, http.StatusConflict, "server_disabled", "is disabled, so its tools cannot run")
}
