package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
)

var testScope = domain.Scope{User: domain.LocalUser, Workspace: "test"}

// invFixture is a fixture whose handlers run tool calls through a real
// Invocations service over the fake session of one connected server.
type invFixture struct {
	*fixture
	svc  *domain.Invocations
	sess *domaintest.Session
}

// refuseN is a validator that refuses any arguments holding "n".
type refuseN struct{}

func (refuseN) FillDefaults(schema, doc json.RawMessage) (json.RawMessage, []string, error) {
	return doc, nil, nil
}

func (refuseN) Validate(schema, doc json.RawMessage) error {
	if bytes.Contains(doc, []byte(`"n"`)) {
		return &domain.SchemaError{Violations: []domain.Violation{{Pointer: "/n", Message: "not allowed"}}}
	}
	return nil
}

func newInvFixture(t *testing.T) *invFixture {
	t.Helper()
	f := &invFixture{}
	f.fixture = newFixture(t, func(o *handlers.Options) {
		o.Scope = testScope
		f.svc = domain.NewInvocations(domain.InvocationsOptions{
			Caller: o.Fleet, Catalog: o.Fleet, Store: domaintest.NewInvocationStore(), Validator: refuseN{},
		})
		o.Invocations = f.svc
	})
	t.Cleanup(func() { _ = f.svc.Close(context.Background()) })
	caps := domain.Capabilities{Tools: []domain.Tool{{Name: "echo", InputSchema: []byte(`{"type":"object"}`)}}}
	f.sess = f.connect(t, stdio("demo"), caps)
	return f
}

func (f *invFixture) post(t *testing.T, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp.StatusCode, buf.Bytes()
}

// waitInvocation follows the feed until id reaches status.
func (f *invFixture) waitInvocation(t *testing.T, sub *domain.InvocationSubscription, id string, status domain.InvocationStatus) domain.Invocation {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	for {
		batch, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("invocation %s never became %s", id, status)
		}
		for _, inv := range batch {
			if inv.ID == id && inv.Status == status {
				return inv
			}
		}
	}
}

func TestToolCallAPI(t *testing.T) {
	f := newInvFixture(t)
	f.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"text","text":"hi"}]}`), nil
	})
	sub := f.svc.Feed().Subscribe(testScope)
	defer sub.Close()

	status, body := f.post(t, handlers.ToolCallPath("demo", "echo")+"?conversationId=c1", `{"message":"hi"}`)
	if status != http.StatusAccepted {
		t.Fatalf("call: got %d, want 202; body %s", status, body)
	}
	got := decode[handlers.InvocationDTO](t, body)
	if got.Status != "pending" || got.Tool != "echo" || got.ServerName != "demo" || got.ConversationID != "c1" ||
		string(got.Arguments) != `{"message":"hi"}` || got.EndedAt != nil || (got.Result != nil && string(got.Result) != "null") {
		t.Errorf("call answer: got %+v", got)
	}
	f.waitInvocation(t, sub, got.ID, domain.InvocationSuccess)

	status, body = f.do(t, http.MethodGet, handlers.InvocationPath(handlers.PathInvocation, got.ID), nil)
	one := decode[handlers.InvocationDTO](t, body)
	if status != http.StatusOK || one.Status != "success" || one.EndedAt == nil || !strings.Contains(string(one.Result), `"hi"`) {
		t.Errorf("get: got %d %+v", status, one)
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(body, &raw)
	for _, k := range []string{"id", "serverName", "tool", "arguments", "status", "progress", "result", "truncated", "resultSize",
		"error", "startedAt", "endedAt", "conversationId", "messageId", "toolCallId", "retryOf", "version"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("invocation JSON lacks %q: %s", k, body)
		}
	}

	status, body = f.do(t, http.MethodGet, handlers.PathInvocations+"?server=demo&limit=1", nil)
	list := decode[handlers.InvocationListDTO](t, body)
	if status != http.StatusOK || len(list.Invocations) != 1 || list.Next != nil {
		t.Errorf("list: got %d %+v", status, list)
	}

	for name, tc := range map[string]struct {
		path, body string
		status     int
		code       string
	}{
		"unknown tool":   {handlers.ToolCallPath("demo", "nope"), `{}`, http.StatusNotFound, "not_found"},
		"unknown server": {handlers.ToolCallPath("ghost", "echo"), `{}`, http.StatusNotFound, "not_found"},
		"not an object":  {handlers.ToolCallPath("demo", "echo"), `[1]`, http.StatusBadRequest, "bad_arguments"},
		"schema":         {handlers.ToolCallPath("demo", "echo"), `{"n":1}`, http.StatusUnprocessableEntity, "invalid_arguments"},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := f.post(t, tc.path, tc.body)
			e := wantError(t, status, body, tc.status, tc.code)
			if tc.code == "invalid_arguments" && (len(e.Error.Violations) != 1 || e.Error.Violations[0].Pointer != "/n") {
				t.Errorf("violations: got %+v, want one at /n", e.Error.Violations)
			}
		})
	}
}

func TestInvocationOfAnotherTenantIsNotFound(t *testing.T) {
	f := newInvFixture(t)
	other, err := f.svc.Start(t.Context(), domain.CallRequest{Scope: domain.Scope{User: "mallory", Workspace: "test"}, Server: "demo", Tool: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{handlers.PathInvocation, handlers.PathUIInvocation, handlers.PathUIInvocationCopy + "?part=arguments"} {
		status, body := f.do(t, http.MethodGet, handlers.InvocationPath(p, other.ID), nil)
		wantError(t, status, body, http.StatusNotFound, "not_found")
	}
	status, body := f.post(t, handlers.InvocationPath(handlers.PathInvocationCancel, other.ID), "")
	wantError(t, status, body, http.StatusNotFound, "not_found")
}

func TestCancelSlowCallAndRetryError(t *testing.T) {
	f := newInvFixture(t)
	started := make(chan struct{})
	f.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		if bytes.Contains(args, []byte("fail")) {
			return json.RawMessage(`{"isError":true,"content":[{"type":"text","text":"boom"}]}`), nil
		}
		progress(domain.Progress{Progress: 1, Total: 4, Message: "working"})
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	sub := f.svc.Feed().Subscribe(testScope)
	defer sub.Close()
	_, body := f.post(t, handlers.ToolCallPath("demo", "echo"), `{}`)
	inv := decode[handlers.InvocationDTO](t, body)
	<-started
	status, body := f.post(t, handlers.InvocationPath(handlers.PathInvocationCancel, inv.ID), "")
	if got := decode[handlers.InvocationDTO](t, body); status != http.StatusOK || got.Status != "cancelled" {
		t.Errorf("cancel: got %d %s, want 200 cancelled", status, got.Status)
	}

	_, body = f.post(t, handlers.ToolCallPath("demo", "echo"), `{"mode":"fail"}`)
	failed := decode[handlers.InvocationDTO](t, body)
	f.waitInvocation(t, sub, failed.ID, domain.InvocationError)
	status, body = f.post(t, handlers.InvocationPath(handlers.PathInvocationRetry, failed.ID), "")
	retry := decode[handlers.InvocationDTO](t, body)
	if status != http.StatusAccepted || retry.RetryOf == nil || *retry.RetryOf != failed.ID || retry.ID == failed.ID {
		t.Errorf("retry: got %d %+v", status, retry)
	}
	f.waitInvocation(t, sub, retry.ID, domain.InvocationError)

	_, text := f.do(t, http.MethodGet, handlers.InvocationPath(handlers.PathUIInvocationCopy, failed.ID)+"?part=result", nil)
	if string(text) != "boom" {
		t.Errorf("copy result: got %q, want boom", text)
	}
	_, text = f.do(t, http.MethodGet, handlers.InvocationPath(handlers.PathUIInvocationCopy, failed.ID)+"?part=arguments", nil)
	if !strings.Contains(string(text), `"mode": "fail"`) {
		t.Errorf("copy arguments: got %q", text)
	}
}

func TestEventsCarryInvocationFrames(t *testing.T) {
	f := newInvFixture(t)
	s := f.openEvents(t)
	s.until(t, "the demo status", func(fr sseFrame) bool { return fr.Event == "status" })
	_, body := f.post(t, handlers.ToolCallPath("demo", "echo"), `{}`)
	inv := decode[handlers.InvocationDTO](t, body)
	var statuses []string
	s.until(t, "the call's success", func(fr sseFrame) bool {
		if fr.Event != "invocation" {
			return false
		}
		got := decode[handlers.InvocationDTO](t, []byte(fr.Data))
		if got.ID != inv.ID {
			t.Errorf("frame of another invocation: %s", fr.Data)
		}
		statuses = append(statuses, got.Status)
		return got.Status == "success"
	})
	if got := strings.Join(statuses, ","); !strings.HasSuffix(got, "running,success") {
		t.Errorf("statuses: got %s, want running before success", got)
	}
}

func TestPageEventsSwapCallRows(t *testing.T) {
	f := newInvFixture(t)
	release := make(chan struct{})
	f.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		<-release
		return json.RawMessage(`{"content":[{"type":"text","text":"**done**"}]}`), nil
	})
	s := f.openPageEvents(t, nil)
	s.until(t, "the empty list", func(fr sseFrame) bool {
		return fr.Event == "status" && fragment(t, fr).Find(`#calls-list[hx-swap-oob]`).Length() == 1
	})
	_, body := f.post(t, handlers.ToolCallPath("demo", "echo"), `{}`)
	inv := decode[handlers.InvocationDTO](t, body)
	ins, _ := s.until(t, "the row's insert", func(fr sseFrame) bool {
		return fr.Event == "status" && fragment(t, fr).Find(`[hx-swap-oob="afterbegin:#calls-list"] [data-testid="call-row"][data-invocation="`+inv.ID+`"]`).Length() == 1
	})
	if got := fragment(t, ins).Find(`[data-testid="call-row"]`).AttrOr("id", ""); got != "callrow-"+inv.ID {
		t.Errorf("row id: got %q", got)
	}
	if n := fragment(t, ins).Find(`[data-testid="invocation-card"]`).Length(); n != 0 {
		t.Errorf("the insert carries %d cards, want rows only", n)
	}
	close(release)
	s.until(t, "the row's replacement as done", func(fr sseFrame) bool {
		return fr.Event == "status" && fragment(t, fr).Find(`#callrow-`+inv.ID+`[hx-swap-oob="outerHTML"][data-status="success"]`).Length() == 1
	})
	// The card opened under the row listens to the call's own event.
	card, _ := s.until(t, "the open card's content as done", func(fr sseFrame) bool {
		return fr.Event == "call-"+inv.ID && fragment(t, fr).Find(`#hinv-`+inv.ID+`[data-status="success"]`).Length() == 1
	})
	if fragment(t, card).Find(`[data-testid="content-text"] strong`).Text() != "done" {
		t.Errorf("result not rendered in the card's event: %s", card.Data)
	}

	// A stream that starts later lists the stored row in its first list.
	s2 := f.openPageEvents(t, nil)
	s2.until(t, "the stored row", func(fr sseFrame) bool {
		return fr.Event == "status" && fragment(t, fr).Find(`#calls-list[hx-swap-oob] #callrow-`+inv.ID).Length() == 1
	})
}
