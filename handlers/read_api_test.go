package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// readCaps lists one prompt, so that a prompt the server lacks is known
// to be missing.
var readCaps = domain.Capabilities{Prompts: []domain.Prompt{{Name: "greet", Arguments: []domain.PromptArgument{{Name: "who"}}}}}

func TestReadAPIPassesRequestsThrough(t *testing.T) {
	f := newFixture(t)
	sess := f.connect(t, stdio("demo"), readCaps)
	var gotArgs map[string]string
	sess.OnGetPrompt(func(_ context.Context, prompt string, args map[string]string) (json.RawMessage, error) {
		gotArgs = args
		return json.RawMessage(`{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}`), nil
	})
	var gotReq domain.CompleteRequest
	sess.OnComplete(func(_ context.Context, req domain.CompleteRequest) (json.RawMessage, error) {
		gotReq = req
		return json.RawMessage(`{"completion":{"values":["Ann"]}}`), nil
	})

	status, body := f.postJSON(t, handlers.PromptGetPath("demo", "greet"), `{"arguments": {"who": "Ann \u00e9"}}`)
	if status != http.StatusOK || !strings.Contains(string(body), `"text":"hi"`) {
		t.Fatalf("prompts/get: got %d %s, want 200 with the result", status, body)
	}
	if want := map[string]string{"who": "Ann é"}; !reflect.DeepEqual(gotArgs, want) {
		t.Errorf("prompt arguments: got %v, want %v", gotArgs, want)
	}

	status, body = f.postJSON(t, handlers.PromptGetPath("demo", "greet"), "")
	if status != http.StatusOK || gotArgs != nil {
		t.Errorf("prompts/get without a body: got %d %s with arguments %v, want 200 and none", status, body, gotArgs)
	}

	status, body = f.postJSON(t, handlers.ServerPath(handlers.PathComplete, "demo"),
		`{"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "who", "value": "A"}, "context": {"arguments": {"lang": "en"}}}`)
	if status != http.StatusOK || string(body) != `{"completion":{"values":["Ann"]}}` {
		t.Fatalf("complete: got %d %s, want 200 with the result as sent", status, body)
	}
	want := domain.CompleteRequest{Ref: domain.CompletionRef{Type: domain.RefPrompt, Name: "greet"},
		Argument: "who", Value: "A", Context: map[string]string{"lang": "en"}}
	if !reflect.DeepEqual(gotReq, want) {
		t.Errorf("complete request: got %+v, want %+v", gotReq, want)
	}
}

func TestReadAPIRefusesBadRequests(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("demo"), readCaps)
	prompt := handlers.PromptGetPath("demo", "greet")
	complete := handlers.ServerPath(handlers.PathComplete, "demo")
	for _, tc := range []struct {
		name, path, body string
		wantStatus       int
		wantCode         string
		wantMessage      string
	}{
		{"prompt-body-not-json", prompt, `{"arguments" {}}`, 400, "bad_request", "request body is not valid JSON (line 1, column 14)"},
		{"prompt-argument-number", prompt, `{"arguments": {"who": 3}}`, 400, "bad_arguments", `"arguments.who" must be a string, not a number`},
		{"prompt-argument-null", prompt, `{"arguments": {"who": null}}`, 400, "bad_arguments", `"arguments.who" must be a string, not null`},
		{"prompt-arguments-array", prompt, `{"arguments": ["Ann"]}`, 400, "bad_request", `"arguments" must be an object, not an array`},
		{"prompt-unknown-field", prompt, `{"args": {}}`, 400, "bad_request", `unknown field "args"`},
		{"prompt-body-array", prompt, `[]`, 400, "bad_request", "must be a JSON object"},
		{"prompt-unknown", handlers.PromptGetPath("demo", "nope"), `{}`, 404, "not_found", `prompt "nope" not found on server "demo"`},
		{"prompt-unknown-server", handlers.PromptGetPath("nope", "greet"), `{}`, 404, "not_found", `server "nope"`},
		{"complete-no-body", complete, ``, 400, "bad_request", `"ref"`},
		{"complete-no-argument", complete, `{"ref": {"type": "ref/prompt", "name": "greet"}}`, 400, "bad_request", `"argument"`},
		{"complete-bad-ref-type", complete, `{"ref": {"type": "ref/tool", "name": "x"}, "argument": {"name": "a", "value": ""}}`, 400, "bad_request", `not "ref/tool"`},
		{"complete-resource-without-uri", complete, `{"ref": {"type": "ref/resource"}, "argument": {"name": "a", "value": ""}}`, 400, "bad_request", "uri"},
		{"complete-name-not-string", complete, `{"ref": {"type": "ref/prompt", "name": 7}, "argument": {"name": "a", "value": ""}}`, 400, "bad_request", `"ref.name" must be a string, not a number`},
		{"complete-context-not-string", complete, `{"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "who", "value": ""}, "context": {"arguments": {"lang": true}}}`, 400, "bad_arguments", `"context.arguments.lang" must be a string, not a boolean`},
		{"complete-unknown-prompt", complete, `{"ref": {"type": "ref/prompt", "name": "nope"}, "argument": {"name": "a", "value": ""}}`, 404, "not_found", `prompt "nope" not found on server "demo"`},
		{"complete-body-too-large", complete, `{"argument": {"name": "a", "value": "` + strings.Repeat("x", 4<<20) + `"}}`, 413, "too_large", "4 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := f.postJSON(t, tc.path, tc.body)
			e := wantError(t, status, body, tc.wantStatus, tc.wantCode)
			if !strings.Contains(e.Error.Message, tc.wantMessage) {
				t.Errorf("message: got %q, want it to contain %q", e.Error.Message, tc.wantMessage)
			}
		})
	}
	t.Run("read-without-uri", func(t *testing.T) {
		status, body := f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathResourceRead, "demo"), nil)
		e := wantError(t, status, body, http.StatusBadRequest, "bad_request")
		if !strings.Contains(e.Error.Message, "uri") {
			t.Errorf("message %q does not name the uri parameter", e.Error.Message)
		}
	})
}

func TestReadAPIRefusesDisabledServer(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("demo"), readCaps)
	if _, err := f.fleet.Disable(t.Context(), "demo"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, f.fleet.Hub(), "demo", "disabled", func(s domain.Status) bool { return s.State == domain.StateDisabled })
	for _, tc := range []struct{ name, method, path, body string }{
		{"read", http.MethodGet, handlers.ResourceReadPath("demo", "demo://readme"), ""},
		{"prompt", http.MethodPost, handlers.PromptGetPath("demo", "greet"), `{}`},
		{"complete", http.MethodPost, handlers.ServerPath(handlers.PathComplete, "demo"), `{"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "who", "value": ""}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var status int
			var body []byte
			if tc.method == http.MethodGet {
				status, body = f.do(t, tc.method, tc.path, nil)
			} else {
				status, body = f.postJSON(t, tc.path, tc.body)
			}
			e := wantError(t, status, body, http.StatusConflict, "server_disabled")
			if want := `server "demo" is disabled: manual`; e.Error.Message != want {
				t.Errorf("message: got %q, want %q", e.Error.Message, want)
			}
		})
	}
}

func TestReadAPIRequiresToken(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("demo"), readCaps)
	for _, tc := range []struct{ method, path string }{
		{http.MethodGet, handlers.ResourceReadPath("demo", "demo://readme")},
		{http.MethodPost, handlers.PromptGetPath("demo", "greet")},
		{http.MethodPost, handlers.ServerPath(handlers.PathComplete, "demo")},
	} {
		resp, body := send(t, anonymous(), tc.method, f.srv.URL+tc.path, nil, strings.NewReader(`{}`))
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, `"unauthorized"`) {
			t.Errorf("%s %s without the token: got %d %.200s, want 401 unauthorized", tc.method, tc.path, resp.StatusCode, body)
		}
	}
}

// TestReadAPIServerFailures checks how what went wrong on the server's
// side reaches the client: its refusal as 502 server_error, with the
// secrets of its settings removed; a lost connection as 502
// connection_failed; no answer within the call timeout as 504.
func TestReadAPIServerFailures(t *testing.T) {
	const secret = "correct-horse-battery-staple"
	f := newFixture(t)
	cfg := stdio("demo")
	cfg.Env = map[string]string{"API_KEY": secret}
	sess := f.connect(t, cfg, readCaps)
	slow := stdio("slow")
	slow.CallTimeout = time.Millisecond
	slowSess := f.connect(t, slow, readCaps)
	slowSess.OnRead(func(ctx context.Context, uri string) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, &domain.ConnError{Category: domain.CategoryTimeout, Err: ctx.Err()}
	})
	for _, tc := range []struct {
		name, server string
		err          error
		wantStatus   int
		wantCode     string
	}{
		{"server-refused", "demo", &domain.ServerError{Code: -32002, Message: "no resource for key " + secret}, 502, "server_error"},
		{"connection-lost", "demo", &domain.ConnError{Category: domain.CategoryExited, ExitCode: 1, StderrTail: []string{"key " + secret + " rejected"}}, 502, "connection_failed"},
		{"no-answer-within-call-timeout", "slow", nil, 504, "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sess.OnRead(func(context.Context, string) (json.RawMessage, error) { return nil, tc.err })
			status, body := f.do(t, http.MethodGet, handlers.ResourceReadPath(tc.server, "demo://x"), nil)
			e := wantError(t, status, body, tc.wantStatus, tc.wantCode)
			if strings.Contains(string(body), secret) {
				t.Errorf("the answer repeats the server's secret: %s", body)
			}
			if want := "read demo://x on " + tc.server; !strings.Contains(e.Error.Message, want) {
				t.Errorf("message %q does not say %q", e.Error.Message, want)
			}
		})
	}
	if st, _ := f.fleet.Status("demo"); st.State != domain.StateConnected {
		t.Errorf("after failed reads the server is %s, want still connected", st.State)
	}
}
