package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/jsonschema"
)

// shotSchema is zod's output for Playwright MCP's screenshot tool: scale
// is required and has a default.
const shotSchema = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{
	"scale":{"type":"string","enum":["css","device"],"default":"css","description":"Scale of the image."},
	"thoughtNumber":{"type":"integer"}
},"required":["scale"],"additionalProperties":false}`

// shotFixture is a connected server "demo" offering "shot" (with
// shotSchema, which may run as a task), behind handlers with the real
// validator; the arguments of every call arrive on calls.
func shotFixture(t *testing.T) (*fixture, *domain.Invocations, chan json.RawMessage) {
	t.Helper()
	var svc *domain.Invocations
	f := newFixture(t, func(o *handlers.Options) {
		o.Scope = testScope
		svc = domain.NewInvocations(domain.InvocationsOptions{Caller: o.Fleet, Catalog: o.Fleet,
			Store: domaintest.NewInvocationStore(), Validator: jsonschema.New()})
		o.Invocations = svc
	})
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	sess := f.connect(t, stdio("demo"), domain.Capabilities{Tools: []domain.Tool{
		{Name: "shot", InputSchema: []byte(shotSchema), TaskSupport: domain.TaskSupportOptional},
	}})
	calls := make(chan json.RawMessage, 4)
	sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		calls <- args
		return json.RawMessage(`{"content":[]}`), nil
	})
	return f, svc, calls
}

// A property with a default is not required of the person: its field
// says what the default is, and the Raw JSON tab's {} is sent with it.
func TestRunFormDefaultIsNotRequired(t *testing.T) {
	f, _, calls := shotFixture(t)
	r := f.ui(t, http.MethodGet, handlers.RunFormPath("demo", "shot"), nil, "pt-BR")
	field := r.doc.Find(`[data-testid="run-field"][data-name="scale"]`)
	if got := field.AttrOr("data-required", ""); got != "false" {
		t.Errorf("scale data-required: got %q, want false", got)
	}
	if got := field.Find(`[data-testid="run-hint"]`).Text(); !strings.Contains(got, "Padrão: css") {
		t.Errorf("scale hint: got %q, want the default", got)
	}
	if n := r.doc.Find(`[data-testid="run-as-task"]`).Length(); n != 1 {
		t.Errorf("Run as a task box: %d, want 1 for a tool whose taskSupport is optional", n)
	}
	r = f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "shot"), url.Values{"mode": {"raw"}, "raw": {`{}`}}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("raw {}: got %d, want 200; body %s", r.status, r.body)
	}
	if got := <-calls; string(got) != `{"scale":"css"}` {
		t.Errorf("sent %s, want the default filled in", got)
	}
}

// A schema refusal on the Raw JSON tab keeps the text exactly as typed,
// with every violation beside it, and offers Send anyway, which sends it.
func TestRunFormRawRefusalKeepsTextAndSendsAnyway(t *testing.T) {
	f, svc, calls := shotFixture(t)
	typed := "{\n  \"thoughtNumber\": \"2\",\n   \"scale\": \"huge\"\n}"
	r := f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "shot"), url.Values{"mode": {"raw"}, "raw": {typed}}, "zh-Hans")
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("got %d, want 422; body %s", r.status, r.body)
	}
	if got := r.doc.Find(`[data-testid="run-raw"]`).Text(); got != typed {
		t.Errorf("raw text: got %q, want exactly %q", got, typed)
	}
	if got := r.doc.Find(`[data-testid="run-tab-raw"]`).AttrOr("aria-selected", ""); got != "true" {
		t.Errorf("the Raw JSON tab stays selected: got %q", got)
	}
	raw := r.doc.Find(`[data-testid="run-raw"]`)
	if raw.AttrOr("aria-invalid", "") != "true" || raw.AttrOr("aria-describedby", "") != r.doc.Find(`[data-testid="run-raw-error"]`).AttrOr("id", "-") {
		t.Errorf("raw editor: want aria-invalid and described by its errors")
	}
	var where []string
	r.doc.Find(`[data-testid="run-raw-violation"]`).Each(func(_ int, s *goquery.Selection) { where = append(where, s.Text()) })
	if len(where) != 2 || !slices.ContainsFunc(where, func(s string) bool { return strings.Contains(s, "/thoughtNumber") }) ||
		!slices.ContainsFunc(where, func(s string) bool { return strings.Contains(s, "/scale") }) {
		t.Errorf("violations beside the raw editor: got %q, want /thoughtNumber and /scale", where)
	}
	if got := r.doc.Find(`[data-testid="run-send-anyway"]`).Text(); got != "仍然发送" {
		t.Errorf("Send anyway button: got %q", got)
	}
	if n := r.doc.Find(`[data-testid="run-field-error"]`).Length(); n != 0 {
		t.Errorf("%d errors on the hidden Form tab, want none", n)
	}

	sub := svc.Feed().Subscribe(testScope)
	defer sub.Close()
	r = f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "shot"),
		url.Values{"mode": {"raw"}, "raw": {typed}, "send_anyway": {"true"}}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("send anyway: got %d, want 200; body %s", r.status, r.body)
	}
	if got := <-calls; string(got) != `{"thoughtNumber":"2","scale":"huge"}` {
		t.Errorf("sent %s, want the arguments as typed", got)
	}
	id := r.doc.Find(`[data-testid="run-card-slot"]`).AttrOr("data-invocation", "")
	inv := waitFeed(t, sub, id)
	if len(inv.Mismatch) != 2 {
		t.Errorf("mismatch recorded: %+v, want both violations", inv.Mismatch)
	}
}

// On the Form tab a missing required field may be sent anyway too; a
// value that cannot be read may not.
func TestRunFormSendAnywayOnTheFormTab(t *testing.T) {
	f, _, calls := shotFixture(t)
	r := f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "shot"),
		url.Values{"mode": {"form"}, "arg.thoughtNumber": {"two"}}, "en")
	if r.status != http.StatusUnprocessableEntity || r.doc.Find(`[data-testid="run-send-anyway"]`).Length() != 0 {
		t.Errorf("unreadable number: got %d with Send anyway %d, want 422 without it", r.status,
			r.doc.Find(`[data-testid="run-send-anyway"]`).Length())
	}
	r = f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "shot"),
		url.Values{"mode": {"form"}, "arg.thoughtNumber": {"2"}}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("got %d, want 200; body %s", r.status, r.body)
	}
	if got := <-calls; string(got) != `{"thoughtNumber":2,"scale":"css"}` {
		t.Errorf("sent %s", got)
	}
}

// waitFeed follows the feed until invocation id has been seen running or
// finished, and returns it.
func waitFeed(t *testing.T, sub *domain.InvocationSubscription, id string) domain.Invocation {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	for {
		batch, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("invocation %s never showed up", id)
		}
		for _, inv := range batch {
			if inv.ID == id && inv.Status != domain.InvocationPending {
				return inv
			}
		}
	}
}
