package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/jsonschema"
)

// elicitSchema has every kind of field a form shows.
const elicitSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name","minLength":2},
	"email":{"type":"string","format":"email"},
	"age":{"type":"integer","minimum":0,"default":30},
	"ok":{"type":"boolean","default":true},
	"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}],"default":"l"},
	"tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"default":["b"]}
},"required":["name"]}`

// asked is one question waiting in svc and the answer its server gets.
type asked struct {
	answer chan json.RawMessage
}

// ask puts a form question of no call from server "srv" to svc and
// waits until it is listed.
func ask(t *testing.T, svc *domain.Elicitations, params string) (domain.Elicitation, asked) {
	t.Helper()
	e, err := domain.ParseElicitation("srv", json.RawMessage(params))
	if err != nil {
		t.Fatal(err)
	}
	a := asked{answer: make(chan json.RawMessage, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ch, stop := svc.Subscribe()
	defer stop()
	go func() {
		res, err := svc.Ask(ctx, e, nil)
		if err != nil {
			res = json.RawMessage(`"` + err.Error() + `"`)
		}
		a.answer <- res
	}()
	deadline := time.After(patience)
	for {
		if l := svc.ForServer("srv"); len(l) > 0 {
			return l[0], a
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatal("the question was never listed")
		}
	}
}

func (a asked) wait(t *testing.T) string {
	t.Helper()
	select {
	case res := <-a.answer:
		return string(res)
	case <-time.After(patience):
		t.Fatal("the server got no answer")
		return ""
	}
}

func withElicitations(svc *domain.Elicitations) func(*handlers.Options) {
	return func(o *handlers.Options) {
		o.Elicitations = svc
		o.Validator = jsonschema.New()
	}
}

func TestElicitationsAPIListsAndAnswersWithDefaults(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, withElicitations(svc))
	e, a := ask(t, svc, `{"message":"Who are you?","requestedSchema":`+elicitSchema+`}`)

	code, body := f.do(t, http.MethodGet, handlers.PathElicitations, nil)
	if code != http.StatusOK {
		t.Fatalf("GET: %d %s", code, body)
	}
	var list handlers.ElicitationsDTO
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Elicitations) != 1 {
		t.Fatalf("listed %s; want one", body)
	}
	got := list.Elicitations[0]
	if got.ID != e.ID || got.ServerName != "srv" || got.InvocationID != nil || got.Message != "Who are you?" ||
		!strings.Contains(string(got.RequestedSchema), `"oneOf"`) || got.CreatedAt == 0 {
		t.Errorf("listed %s", body)
	}

	path := strings.Replace(handlers.PathElicitation, ":id", e.ID, 1)
	if code, body := f.postJSON(t, path, `{"action":"maybe"}`); code != http.StatusBadRequest {
		t.Errorf("bad action: %d %s; want 400", code, body)
	}
	// The name breaks minLength: the API warns but passes it on.
	code, body = f.postJSON(t, path, `{"action":"accept","content":{"name":"x"}}`)
	if code != http.StatusOK {
		t.Fatalf("answer: %d %s", code, body)
	}
	var out handlers.ElicitationAnsweredDTO
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Warnings) == 0 {
		t.Errorf("answered %s; want a warning about the short name", body)
	}
	var sent struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if err := json.Unmarshal([]byte(a.wait(t)), &sent); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "x", "age": 30.0, "ok": true, "size": "l", "tags": []any{"b"}}
	if sent.Action != "accept" || !sameJSON(sent.Content, want) {
		t.Errorf("server got %+v; want accept with %v", sent, want)
	}
	if code, _ := f.postJSON(t, path, `{"action":"decline"}`); code != http.StatusNotFound {
		t.Errorf("second answer: %d; want 404", code)
	}
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// The drawer lists a question of no call as a form with its defaults
// prefilled and titles shown; the form's answer is typed by the schema.
func TestElicitationFormInTheDrawer(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, withElicitations(svc))
	e, a := ask(t, svc, `{"message":"Who <b>are</b> you?","requestedSchema":`+elicitSchema+`}`)

	list := handlers.ServerPath(handlers.PathUIServerElicitations, "srv")
	code, body := f.do(t, http.MethodGet, list, nil)
	if code != http.StatusOK {
		t.Fatalf("drawer list: %d %s", code, body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Find(`[data-testid="elicitation-message"]`).Text(); got != "Who <b>are</b> you?" {
		t.Errorf("message %q; want the server's text, escaped", got)
	}
	if doc.Find(`[data-testid="elicitation-message"] b`).Length() != 0 {
		t.Errorf("the server's markup was rendered")
	}
	checks := []struct{ sel, attr, want string }{
		{`input[name="f.name"]`, "required", ""},
		{`input[name="f.name"]`, "minlength", "2"},
		{`input[name="f.email"]`, "type", "email"},
		{`input[name="f.age"]`, "value", "30"},
		{`input[name="f.age"]`, "step", "1"},
		{`input[name="f.age"]`, "min", "0"},
		{`input[name="f.ok"]`, "checked", ""},
		{`select[name="f.size"] option[selected]`, "value", "l"},
		{`input[name="f.tags"][checked]`, "value", "b"},
	}
	for _, c := range checks {
		v, ok := doc.Find(c.sel).Attr(c.attr)
		if !ok || v != c.want {
			t.Errorf("%s[%s] = %q (%v); want %q", c.sel, c.attr, v, ok, c.want)
		}
	}
	if got := doc.Find(`select[name="f.size"] option[value="s"]`).Text(); got != "Small" {
		t.Errorf("enum title %q; want Small", got)
	}
	if doc.Find(`[data-testid="elicitation-required"]`).Length() != 1 {
		t.Errorf("want one required mark")
	}

	answer := strings.Replace(handlers.PathUIElicitation, ":id", e.ID, 1)
	// Too short a name: the form comes back with the warning.
	form := url.Values{"action": {"accept"}, "f.name": {"x"}, "f.age": {"31"}, "shown.f.ok": {"1"},
		"f.size": {"s"}, "f.tags": {"a", "c"}, "shown.f.tags": {"1"}}
	resp := f.postFormTo(t, answer, form)
	if resp.code != http.StatusOK || !strings.Contains(resp.body, `data-testid="elicitation-warnings"`) ||
		!strings.Contains(resp.body, `value="x"`) {
		t.Fatalf("invalid answer: %d %s; want the form with warnings and the answer kept", resp.code, resp.body)
	}
	form.Set("f.name", "Ada")
	if resp := f.postFormTo(t, answer, form); resp.code != http.StatusOK || !strings.Contains(resp.body, `hx-swap-oob="innerHTML:#activity-feed-status"`) {
		t.Fatalf("answer: %d %s", resp.code, resp.body)
	}
	var sent struct {
		Content map[string]any `json:"content"`
	}
	_ = json.Unmarshal([]byte(a.wait(t)), &sent)
	want := map[string]any{"age": 31.0, "name": "Ada", "ok": false, "size": "s", "tags": []any{"a", "c"}}
	if !sameJSON(sent.Content, want) {
		t.Errorf("server got %v; want %v", sent.Content, want)
	}
}

// A URL-mode question answers accept and sends the new tab on to the
// address; a javascript: address never gets that far.
func TestElicitationURLModeOpensTheAddress(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, withElicitations(svc))
	e, a := ask(t, svc, `{"mode":"url","message":"Authorize","url":"https://auth.example.com/start?x=1","elicitationId":"e1"}`)
	code, body := f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathUIServerElicitations, "srv"), nil)
	if code != http.StatusOK || !strings.Contains(string(body), "auth.example.com") {
		t.Fatalf("drawer list: %d %s; want the host", code, body)
	}
	resp := f.postFormTo(t, strings.Replace(handlers.PathUIElicitation, ":id", e.ID, 1), url.Values{"action": {"accept"}})
	if resp.code != http.StatusOK || !strings.Contains(resp.body, `content="0;url=https://auth.example.com/start?x=1"`) {
		t.Errorf("open: %d %s; want a page that goes to the address", resp.code, resp.body)
	}
	if got := a.wait(t); got != `{"action":"accept"}` {
		t.Errorf("server got %s; want accept without content", got)
	}
}

type formResponse struct {
	code int
	body string
}

// postFormTo posts form to path as the dashboard does.
func (f *fixture) postFormTo(t *testing.T, path string, form url.Values) formResponse {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return formResponse{resp.StatusCode, string(b)}
}

// An answer that arrives after the question's call ended is refused
// cleanly, through the API and the form alike.
func TestElicitationAnsweredAfterItsCallEnded(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, withElicitations(svc))
	e, err := domain.ParseElicitation("srv", json.RawMessage(`{"message":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() {
		_, err := svc.Ask(ctx, e, nil)
		ended <- err
	}()
	ch, stop := svc.Subscribe()
	defer stop()
	for len(svc.ForServer("srv")) == 0 {
		select {
		case <-ch:
		case <-time.After(patience):
			t.Fatal("the question was never listed")
		}
	}
	id := svc.ForServer("srv")[0].ID
	cancel()
	<-ended
	path := strings.Replace(handlers.PathElicitation, ":id", id, 1)
	if code, body := f.postJSON(t, path, `{"action":"accept","content":{}}`); code != http.StatusNotFound {
		t.Errorf("API answer: %d %s; want 404", code, body)
	}
	if resp := f.postFormTo(t, handlers.ElicitationPath(id), url.Values{"action": {"decline"}}); resp.code != http.StatusNotFound {
		t.Errorf("form answer: %d %s; want 404", resp.code, resp.body)
	}
}
