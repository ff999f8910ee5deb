package handlers_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
)

func TestListServersSortedByName(t *testing.T) {
	f := newFixture(t)
	f.attach(t, stdio("zeta"), stdio("alpha"), stdio("mid"))

	status, body := f.do(t, http.MethodGet, handlers.PathServers, nil)
	if status != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body: %s", status, body)
	}
	list := decode[handlers.ServerListDTO](t, body)
	var names []string
	for _, s := range list.Servers {
		names = append(names, s.ServerName)
		if s.State != string(domain.StateConnecting) {
			t.Errorf("%s state: got %q, want %q", s.ServerName, s.State, domain.StateConnecting)
		}
	}
	if want := []string{"alpha", "mid", "zeta"}; !slices.Equal(names, want) {
		t.Errorf("names: got %v, want %v", names, want)
	}
}

func TestListServersEmptyIsArray(t *testing.T) {
	f := newFixture(t)
	_, body := f.do(t, http.MethodGet, handlers.PathServers, nil)
	if got, want := strings.TrimSpace(string(body)), `{"servers":[]}`; got != want {
		t.Errorf("body: got %s, want %s", got, want)
	}
}

func TestGetServerWithCapabilitiesAndRiskTiers(t *testing.T) {
	f := newFixture(t)
	caps := domain.Capabilities{
		Tools: []domain.Tool{
			{Name: "read_file", Title: "Read file", Description: "Reads a file.",
				InputSchema:  []byte(`{"type":"object","properties":{"path":{"type":"string"}}}`),
				OutputSchema: []byte(`{"type":"object"}`),
				Annotations:  domain.Annotations{Title: "Read", ReadOnlyHint: ptr(true)}},
			{Name: "delete_file", InputSchema: []byte(`{"type":"object"}`),
				Annotations: domain.Annotations{DestructiveHint: ptr(true), IdempotentHint: ptr(true)}},
			{Name: "fetch", InputSchema: []byte(`{"type":"object"}`), Annotations: domain.Annotations{OpenWorldHint: ptr(false)}},
		},
		Resources:         []domain.Resource{{URI: "file:///notes.md", Name: "notes", Title: "Notes", MIMEType: "text/markdown", Size: ptr(int64(42))}},
		ResourceTemplates: []domain.ResourceTemplate{{URITemplate: "file:///{path}", Name: "file", MIMEType: "text/plain"}},
		Prompts: []domain.Prompt{{Name: "summarize", Title: "Summarize", Description: "Summarizes text.",
			Arguments: []domain.PromptArgument{{Name: "text", Description: "What to summarize", Required: true}, {Name: "style"}}}},
	}
	f.attach(t, stdio("files"))
	a := f.conn.Next(t)
	fmt.Fprintln(a.Stderr, "files server listening on stdio")
	a.Succeed(domaintest.NewSession(caps))
	connected := waitFor(t, f.fleet.Hub(), "files", "connected", func(s domain.Status) bool { return s.State == domain.StateConnected })

	status, body := f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathServer, "files"), nil)
	if status != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body: %s", status, body)
	}
	d := decode[handlers.ServerDetailDTO](t, body)
	if d.ServerName != "files" || d.State != "connected" || d.ToolCount != 3 || d.Version != connected.Version {
		t.Errorf("status: got name %q state %q tools %d version %d, want files connected 3 %d",
			d.ServerName, d.State, d.ToolCount, d.Version, connected.Version)
	}
	if d.ProtocolVersion == nil || *d.ProtocolVersion != "2025-11-25" {
		t.Errorf("protocolVersion: got %v, want 2025-11-25", d.ProtocolVersion)
	}

	var tiers []string
	for _, tool := range d.Capabilities.Tools {
		tiers = append(tiers, tool.Name+"="+tool.RiskTier)
	}
	if want := []string{"read_file=low", "delete_file=high", "fetch=medium"}; !slices.Equal(tiers, want) {
		t.Errorf("risk tiers: got %v, want %v", tiers, want)
	}
	read := d.Capabilities.Tools[0]
	if read.Title != "Read file" || read.Description != "Reads a file." || read.Annotations.Title != "Read" {
		t.Errorf("read_file: got title %q description %q annotations.title %q", read.Title, read.Description, read.Annotations.Title)
	}
	if got, want := string(read.InputSchema), `{"type":"object","properties":{"path":{"type":"string"}}}`; got != want {
		t.Errorf("inputSchema: got %s, want %s", got, want)
	}
	if got, want := string(read.OutputSchema), `{"type":"object"}`; got != want {
		t.Errorf("outputSchema: got %s, want %s", got, want)
	}
	if a := read.Annotations; a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint != nil {
		t.Errorf("read_file annotations: got readOnly %v destructive %v, want true and null", a.ReadOnlyHint, a.DestructiveHint)
	}
	if got, want := d.Capabilities.Resources, []handlers.ResourceDTO{{URI: "file:///notes.md", Name: "notes", Title: "Notes", MIMEType: "text/markdown", Size: ptr(int64(42))}}; len(got) != 1 || got[0].URI != want[0].URI || got[0].MIMEType != want[0].MIMEType || got[0].Size == nil || *got[0].Size != 42 {
		t.Errorf("resources: got %+v, want %+v", got, want)
	}
	if got := d.Capabilities.ResourceTemplates; len(got) != 1 || got[0].URITemplate != "file:///{path}" {
		t.Errorf("resourceTemplates: got %+v, want one file:///{path}", got)
	}
	wantPrompt := handlers.PromptDTO{Name: "summarize", Title: "Summarize", Description: "Summarizes text.",
		Arguments: []handlers.PromptArgumentDTO{{Name: "text", Description: "What to summarize", Required: true}, {Name: "style"}}}
	if got := d.Capabilities.Prompts; len(got) != 1 || got[0].Name != wantPrompt.Name || !slices.Equal(got[0].Arguments, wantPrompt.Arguments) {
		t.Errorf("prompts: got %+v, want %+v", got, wantPrompt)
	}
	if want := []string{"files server listening on stdio"}; !slices.Equal(d.Stderr, want) {
		t.Errorf("stderr: got %q, want %q", d.Stderr, want)
	}

	// Absent values are explicit nulls, not missing keys.
	var raw struct {
		Error        json.RawMessage `json:"error"`
		Capabilities struct {
			Tools []map[string]json.RawMessage `json:"tools"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatalf("decode raw: %v", err)
	}
	if got := string(raw.Error); got != "null" {
		t.Errorf("error: got %s, want null", got)
	}
	if got := string(raw.Capabilities.Tools[1]["outputSchema"]); got != "null" {
		t.Errorf("delete_file outputSchema: got %s, want null", got)
	}
}

func TestUnknownServerIsNotFound(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct{ method, pattern string }{
		{http.MethodGet, handlers.PathServer},
		{http.MethodPost, handlers.PathServerRestart},
		{http.MethodPost, handlers.PathServerDisable},
		{http.MethodPost, handlers.PathServerEnable},
		{http.MethodDelete, handlers.PathServer},
	} {
		t.Run(tc.method+" "+tc.pattern, func(t *testing.T) {
			status, body := f.do(t, tc.method, handlers.ServerPath(tc.pattern, "ghost"), nil)
			e := wantError(t, status, body, http.StatusNotFound, "not_found")
			if !strings.Contains(e.Error.Message, `"ghost"`) {
				t.Errorf("message: got %q, want it to name the server", e.Error.Message)
			}
		})
	}
}

func TestCommandsAnswerAcceptedWithState(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})

	post := func(pattern string) handlers.StatusDTO {
		t.Helper()
		status, body := f.do(t, http.MethodPost, handlers.ServerPath(pattern, "files"), nil)
		if status != http.StatusAccepted {
			t.Fatalf("POST %s: status got %d, want 202; body: %s", pattern, status, body)
		}
		return decode[handlers.StatusDTO](t, body)
	}
	check := func(step string, got handlers.StatusDTO, wantState, wantPhase string, wantReason *string) {
		t.Helper()
		reason := func(p *string) string {
			if p == nil {
				return "null"
			}
			return *p
		}
		if got.State != wantState || got.Phase != wantPhase || reason(got.DisabledReason) != reason(wantReason) {
			t.Errorf("%s: got state %q phase %q reason %s, want %q %q %s",
				step, got.State, got.Phase, reason(got.DisabledReason), wantState, wantPhase, reason(wantReason))
		}
	}

	check("restart", post(handlers.PathServerRestart), "connecting", "connecting", nil)
	f.conn.Next(t).Succeed(domaintest.NewSession(domain.Capabilities{}))
	waitFor(t, f.fleet.Hub(), "files", "connected again", func(s domain.Status) bool { return s.State == domain.StateConnected })

	check("disable", post(handlers.PathServerDisable), "disabled", "stopped", ptr("manual"))

	status, body := f.do(t, http.MethodPost, handlers.ServerPath(handlers.PathServerRestart, "files"), nil)
	wantError(t, status, body, http.StatusConflict, "server_disabled")

	check("enable", post(handlers.PathServerEnable), "connecting", "connecting", nil)
	f.conn.Next(t) // the attempt Enable started
}

func TestDeleteRemovesFromSettingsAndFleet(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	f.connect(t, stdio("notes"), domain.Capabilities{})

	status, body := f.do(t, http.MethodDelete, handlers.ServerPath(handlers.PathServer, "files"), nil)
	if status != http.StatusNoContent || len(body) != 0 {
		t.Fatalf("DELETE: got %d %q, want 204 and no body", status, body)
	}
	if got, want := f.editor.recorded(), []string{settingsPath + "#files"}; !slices.Equal(got, want) {
		t.Errorf("editor calls: got %v, want %v", got, want)
	}
	status, body = f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathServer, "files"), nil)
	wantError(t, status, body, http.StatusNotFound, "not_found")

	_, body = f.do(t, http.MethodGet, handlers.PathServers, nil)
	var names []string
	for _, s := range decode[handlers.ServerListDTO](t, body).Servers {
		names = append(names, s.ServerName)
	}
	if want := []string{"notes"}; !slices.Equal(names, want) {
		t.Errorf("servers after delete: got %v, want %v", names, want)
	}
}

func TestDeleteWithBrokenSettingsIsUnprocessable(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	serr := &domain.SettingsError{File: settingsPath, Line: 3, Column: 7, Message: "invalid character '}'"}
	f.editor.failWith(serr)

	status, body := f.do(t, http.MethodDelete, handlers.ServerPath(handlers.PathServer, "files"), nil)
	e := wantError(t, status, body, http.StatusUnprocessableEntity, "settings_invalid")
	if e.Error.Message != serr.Error() {
		t.Errorf("message: got %q, want %q", e.Error.Message, serr.Error())
	}
	if _, err := f.fleet.Status("files"); err != nil {
		t.Errorf("server after failed delete: %v; want it still supervised", err)
	}
}

func TestUnexpectedErrorIsGenericAndLoggedOnce(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	f.editor.failWith(errors.New("rename /home/dev/.config/switchboard/.mcp.json.tmp: disk quota exceeded"))

	status, body := f.do(t, http.MethodDelete, handlers.ServerPath(handlers.PathServer, "files"), nil)
	wantError(t, status, body, http.StatusInternalServerError, "internal")
	if strings.Contains(string(body), "quota") || strings.Contains(string(body), ".tmp") {
		t.Errorf("body reveals the internal error: %s", body)
	}
	recs := f.logs.records(t, "request failed")
	if len(recs) != 1 {
		t.Fatalf("request failed records: got %d, want 1: %v", len(recs), recs)
	}
	r := recs[0]
	if r["level"] != "ERROR" || r["status"] != float64(500) || r["method"] != "DELETE" ||
		!strings.Contains(fmt.Sprint(r["error"]), "disk quota exceeded") {
		t.Errorf("log record: got %v, want level ERROR, status 500, method DELETE and the real error", r)
	}
}

func TestUnknownRouteAndMethodUseErrorShape(t *testing.T) {
	f := newFixture(t)
	status, body := f.do(t, http.MethodGet, "/api/v1/nope", nil)
	wantError(t, status, body, http.StatusNotFound, "not_found")
	status, body = f.do(t, http.MethodPut, handlers.PathServers, nil)
	wantError(t, status, body, http.StatusMethodNotAllowed, "method_not_allowed")
}

func TestServerNameWithSlashAndSpace(t *testing.T) {
	f := newFixture(t)
	const name = "team/files db"
	f.connect(t, stdio(name), domain.Capabilities{})

	status, body := f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathServer, name), nil)
	if status != http.StatusOK {
		t.Fatalf("GET: status got %d, want 200; body: %s", status, body)
	}
	if got := decode[handlers.ServerDetailDTO](t, body).ServerName; got != name {
		t.Errorf("serverName: got %q, want %q", got, name)
	}
	status, body = f.do(t, http.MethodPost, handlers.ServerPath(handlers.PathServerDisable, name), nil)
	if status != http.StatusAccepted {
		t.Fatalf("POST disable: status got %d, want 202; body: %s", status, body)
	}
}

func TestHealth(t *testing.T) {
	f := newFixture(t)
	status, body := f.do(t, http.MethodGet, handlers.PathHealth, nil)
	if got, want := strings.TrimSpace(string(body)), `{"status":"ok"}`; status != http.StatusOK || got != want {
		t.Errorf("healthz: got %d %s, want 200 %s", status, got, want)
	}
}
