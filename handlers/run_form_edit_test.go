package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/jsonschema"
)

// editFixture is runFixture with the invocation service at hand, to
// follow the calls the form starts.
func editFixture(t *testing.T) (*fixture, *domain.Invocations, chan json.RawMessage) {
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
		{Name: "echo", InputSchema: []byte(runSchema)},
		{Name: "noargs"},
	}})
	calls := make(chan json.RawMessage, 4)
	sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		calls <- args
		return json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`), nil
	})
	return f, svc, calls
}

// Edit and re-run: the run form opened with ?from=<call> is filled with
// the arguments that call sent, in the fields; a call whose arguments do
// not fit the fields opens on the Raw JSON tab; a call of another tool
// is not found.
func TestRunFormEditAndRerunPrefills(t *testing.T) {
	f, svc, calls := editFixture(t)
	sub := svc.Feed().Subscribe(testScope)
	defer sub.Close()
	form := url.Values{"mode": {"form"}, "arg.message": {"again"}, "arg.steps": {"7"}, "arg.order": {`"desc"`}, "arg.force": {"true"}}
	r := f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"), form, "en")
	if r.status != http.StatusOK {
		t.Fatalf("run: got %d; body %s", r.status, r.body)
	}
	<-calls
	id := r.doc.Find(`[data-testid="run-card-slot"]`).AttrOr("data-invocation", "")
	waitFeed(t, sub, id)

	r = f.ui(t, http.MethodGet, handlers.RunFormPath("demo", "echo")+"?from="+url.QueryEscape(id), nil, "en")
	if r.status != http.StatusOK {
		t.Fatalf("edit: got %d; body %s", r.status, r.body)
	}
	field := func(name string) string { return `[data-testid="run-field"][data-name="` + name + `"]` }
	if got := r.doc.Find(field("message")+` input`).AttrOr("value", ""); got != "again" {
		t.Errorf("message: got %q, want again", got)
	}
	if got := r.doc.Find(field("steps")+` input`).AttrOr("value", ""); got != "7" {
		t.Errorf("steps: got %q, want 7", got)
	}
	if r.doc.Find(field("force")+` input[checked]`).Length() != 1 {
		t.Errorf("force: want the switch on")
	}
	if got := r.doc.Find(`[data-testid="run-tab-form"]`).AttrOr("aria-selected", ""); got != "true" {
		t.Errorf("tab: got form selected %q, want true", got)
	}

	r = f.ui(t, http.MethodPost, handlers.RunFormPath("demo", "echo"),
		url.Values{"mode": {"raw"}, "raw": {`{"message": "raw", "extra": [1]}`}}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("raw run: got %d; body %s", r.status, r.body)
	}
	<-calls
	raw := r.doc.Find(`[data-testid="run-card-slot"]`).AttrOr("data-invocation", "")
	waitFeed(t, sub, raw)
	r = f.ui(t, http.MethodGet, handlers.RunFormPath("demo", "echo")+"?from="+url.QueryEscape(raw), nil, "en")
	if got := r.doc.Find(`[data-testid="run-tab-raw"]`).AttrOr("aria-selected", ""); got != "true" {
		t.Errorf("an argument without a field: raw tab selected %q, want true", got)
	}
	if got := r.doc.Find(`[data-testid="run-raw"]`).Text(); got == "" || !strings.Contains(got, `"extra"`) {
		t.Errorf("raw text: got %q, want the call's arguments", got)
	}

	r = f.ui(t, http.MethodGet, handlers.RunFormPath("demo", "noargs")+"?from="+url.QueryEscape(id), nil, "en")
	if r.status != http.StatusNotFound {
		t.Errorf("another tool's call: got %d, want 404", r.status)
	}
}
