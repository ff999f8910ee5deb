package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// refuseAll is a validator that refuses every document at its root, as a
// missing required property is reported.
type refuseAll struct{}

func (refuseAll) FillDefaults(schema, doc json.RawMessage) (json.RawMessage, []string, error) {
	return doc, nil, nil
}

func (refuseAll) Validate(schema, doc json.RawMessage) error {
	return &domain.SchemaError{Violations: []domain.Violation{{Pointer: "", Message: "missing property 'scale'"}}}
}

// history returns the scope's stored calls, failing the test on an error.
func history(t *testing.T, f *fixture) []handlers.InvocationDTO {
	t.Helper()
	status, body := f.do(t, http.MethodGet, handlers.PathInvocations, nil)
	if status != http.StatusOK {
		t.Fatalf("history: got %d %s", status, body)
	}
	return decode[handlers.InvocationListDTO](t, body).Invocations
}

// TestToolCallRefusalsInClearWords: what the API answers names
// the tool and the server, the place a body breaks and the server's state,
// and no refused call is recorded.
func TestToolCallRefusalsInClearWords(t *testing.T) {
	f := newInvFixture(t)
	f.connect(t, stdio("off"), domain.Capabilities{Tools: []domain.Tool{{Name: "echo"}}})
	if _, err := f.fleet.Disable(t.Context(), "off"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, body string
		status           int
		code, message    string
	}{
		{"unknown-tool", handlers.ToolCallPath("demo", "no-such-tool"), `{}`, http.StatusNotFound, "not_found",
			`tool "no-such-tool" not found on server "demo"`},
		{"trailing-comma", handlers.ToolCallPath("demo", "echo"), `{"a": 1,}`, http.StatusBadRequest, "bad_arguments",
			"request body is not valid JSON (line 1, column 9)"},
		{"second-line", handlers.ToolCallPath("demo", "echo"), "{\n  \"a\": yes\n}", http.StatusBadRequest, "bad_arguments",
			"request body is not valid JSON (line 2, column 8)"},
		{"columns-count-characters", handlers.ToolCallPath("demo", "echo"), `{"é": x}`, http.StatusBadRequest, "bad_arguments",
			"request body is not valid JSON (line 1, column 7)"},
		{"cut-short", handlers.ToolCallPath("demo", "echo"), `{"a": [1, 2`, http.StatusBadRequest, "bad_arguments",
			"request body is not valid JSON (line 1, column 12)"},
		{"trailing-garbage", handlers.ToolCallPath("demo", "echo"), `{"a": 1} x`, http.StatusBadRequest, "bad_arguments",
			"request body is not valid JSON (line 1, column 10)"},
		{"disabled-server", handlers.ToolCallPath("off", "echo"), `{}`, http.StatusConflict, "server_disabled",
			`server "off" is disabled: manual`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := f.post(t, tt.path, tt.body)
			e := wantError(t, status, body, tt.status, tt.code)
			if e.Error.Message != tt.message {
				t.Errorf("message: got %q, want %q", e.Error.Message, tt.message)
			}
		})
	}
	if got := history(t, f.fixture); len(got) != 0 {
		t.Errorf("history after refused calls: got %d calls, want none", len(got))
	}
}

// TestSchemaErrorAtTheRootReadsRoot: a violation of the whole arguments
// object is placed at "(root)", never "at :".
func TestSchemaErrorAtTheRootReadsRoot(t *testing.T) {
	var svc *domain.Invocations
	f := newFixture(t, func(o *handlers.Options) {
		o.Scope = testScope
		svc = domain.NewInvocations(domain.InvocationsOptions{Caller: o.Fleet, Catalog: o.Fleet,
			Store: domaintest.NewInvocationStore(), Validator: refuseAll{}})
		o.Invocations = svc
	})
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	f.connect(t, stdio("demo"), domain.Capabilities{Tools: []domain.Tool{{Name: "shot", InputSchema: []byte(`{"type":"object"}`)}}})
	inv := &invFixture{fixture: f, svc: svc}
	status, body := inv.post(t, handlers.ToolCallPath("demo", "shot"), `{}`)
	e := wantError(t, status, body, http.StatusUnprocessableEntity, "invalid_arguments")
	if want := "arguments of shot: does not match its schema at (root): missing property 'scale'"; e.Error.Message != want {
		t.Errorf("message: got %q, want %q", e.Error.Message, want)
	}
	if len(e.Error.Violations) != 1 || e.Error.Violations[0].Pointer != "" {
		t.Errorf("violations: got %+v, want one with the root pointer \"\"", e.Error.Violations)
	}
}

// TestSettingsAndApprovalBodiesThatAreNotJSON: the other JSON bodies
// answer the same way.
func TestSettingsAndApprovalBodiesThatAreNotJSON(t *testing.T) {
	s := newSettings()
	s.set(nil, hostileProj(t, `{"command": "node", "args": ["server.js"]}`))
	var r *domain.Reloader
	f := newFixture(t, withSettings(s, &r))
	reload(t, r)
	f.connect(t, stdio("alpha"), domain.Capabilities{})

	send := func(method, path, body string) (int, []byte) {
		req, err := http.NewRequestWithContext(t.Context(), method, f.srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, out
	}
	tests := []struct {
		name, method, path, body, message string
	}{
		{"settings", http.MethodPatch, handlers.ServerPath(handlers.PathServerSettings, "alpha"),
			`{"autoReconnect": tru}`, "request body is not valid JSON (line 1, column 22)"},
		{"approve", http.MethodPost, handlers.ServerPath(handlers.PathServerApprove, "proj"),
			"{\n\"fingerprint\" \"abc\"}", "request body is not valid JSON (line 2, column 15)"},
		{"reject", http.MethodPost, handlers.ServerPath(handlers.PathServerReject, "proj"),
			`<fingerprint>abc</fingerprint>`, "request body is not valid JSON (line 1, column 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := send(tt.method, tt.path, tt.body)
			e := wantError(t, status, body, http.StatusBadRequest, "bad_request")
			if e.Error.Message != tt.message {
				t.Errorf("message: got %q, want %q", e.Error.Message, tt.message)
			}
		})
	}
	// A body that is JSON of the wrong shape still says what is expected.
	status, body := send(http.MethodPatch, handlers.ServerPath(handlers.PathServerSettings, "alpha"), `{"colour": "red"}`)
	if e := wantError(t, status, body, http.StatusBadRequest, "bad_request"); !strings.Contains(e.Error.Message, "autoReconnect") {
		t.Errorf("wrong shape: got %q, want it to name the fields", e.Error.Message)
	}
}
