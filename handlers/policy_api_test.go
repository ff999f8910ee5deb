package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// policyFixture is a connected server "files" with a read-only tool, a
// destructive one and one without annotations, behind handlers whose
// invocation service checks tool policies.
type policyFixture struct {
	*fixture
	svc  *domain.Invocations
	sess *domaintest.Session
}

func newPolicyFixture(t *testing.T) *policyFixture {
	t.Helper()
	f := &policyFixture{}
	f.fixture = newFixture(t, func(o *handlers.Options) {
		o.Scope = testScope
		f.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: o.Fleet, Catalog: o.Fleet,
			Store: domaintest.NewInvocationStore(), Policies: domain.NewPolicies(domaintest.NewPolicyStore())})
		o.Invocations = f.svc
	})
	t.Cleanup(func() { _ = f.svc.Close(context.Background()) })
	caps := filesCaps()
	caps.Tools = append(caps.Tools, domain.Tool{Name: "plain"})
	f.sess = f.connect(t, stdio("files"), caps)
	f.sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`), nil
	})
	return f
}

// send makes one JSON API request and returns the status and body.
func (f *policyFixture) send(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, f.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

func toolPolicyPath(server, tool string) string {
	return strings.Replace(handlers.ServerPath(handlers.PathToolPolicy, server), ":tool", url.PathEscape(tool), 1)
}

func errorCode(t *testing.T, body []byte) string {
	t.Helper()
	var e handlers.ErrorDTO
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body %s: %v", body, err)
	}
	return e.Error.Code
}

func TestToolPolicyAPI(t *testing.T) {
	f := newPolicyFixture(t)
	tests := []struct {
		name, path, body string
		wantStatus       int
		want             string // a substring of the answer
	}{
		{"deny", toolPolicyPath("files", "plain"), `{"policy":"deny"}`, http.StatusOK, `"policy":"deny","chosen":true`},
		{"back-to-default", toolPolicyPath("files", "delete_file"), `{"policy":"default"}`, http.StatusOK, `"policy":"ask","chosen":false`},
		{"hidden", toolPolicyPath("files", "read_file"), `{"policy":"hidden"}`, http.StatusOK, `"policy":"hidden"`},
		{"not-a-policy", toolPolicyPath("files", "plain"), `{"policy":"sometimes"}`, http.StatusBadRequest, `"bad_request"`},
		{"empty-body", toolPolicyPath("files", "plain"), ``, http.StatusBadRequest, `"bad_request"`},
		{"unknown-field", toolPolicyPath("files", "plain"), `{"polcy":"deny"}`, http.StatusBadRequest, `"bad_request"`},
		{"unknown-server", toolPolicyPath("nope", "plain"), `{"policy":"deny"}`, http.StatusNotFound, `"not_found"`},
		{"ask-all", handlers.ServerPath(handlers.PathServerPolicy, "files"), `{"askAll":true}`, http.StatusOK, `"askAll":true`},
		{"ask-all-without-value", handlers.ServerPath(handlers.PathServerPolicy, "files"), `{}`, http.StatusBadRequest, `"bad_request"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := f.send(t, http.MethodPut, tt.path, tt.body)
			if status != tt.wantStatus || !strings.Contains(string(body), tt.want) {
				t.Errorf("got %d %s, want %d containing %s", status, body, tt.wantStatus, tt.want)
			}
		})
	}

	// The server's detail lists each tool's policy in effect and whether
	// it is annotated; with ask-all on, hidden and deny stay as chosen.
	status, body := f.send(t, http.MethodGet, handlers.ServerPath(handlers.PathServer, "files"), "")
	if status != http.StatusOK {
		t.Fatalf("server detail: %d %s", status, body)
	}
	var detail struct {
		Capabilities struct {
			AskAll *bool `json:"askAll"`
			Tools  []struct {
				Name      string `json:"name"`
				Policy    string `json:"policy"`
				Annotated *bool  `json:"annotated"`
			} `json:"tools"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(body, &detail); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"read_file": "hidden", "delete_file": "ask", "plain": "deny"}
	annotated := map[string]bool{"read_file": true, "delete_file": true, "plain": false}
	for _, tool := range detail.Capabilities.Tools {
		if tool.Policy != want[tool.Name] {
			t.Errorf("%s policy: got %q, want %q", tool.Name, tool.Policy, want[tool.Name])
		}
		if tool.Annotated == nil || *tool.Annotated != annotated[tool.Name] {
			t.Errorf("%s annotated: got %v, want %v", tool.Name, tool.Annotated, annotated[tool.Name])
		}
	}
	if a := detail.Capabilities.AskAll; a == nil || !*a {
		t.Errorf("askAll: got %v, want true", a)
	}
}

func TestDenyPolicyRefusesAPIAndDashboardCalls(t *testing.T) {
	f := newPolicyFixture(t)
	if status, body := f.send(t, http.MethodPut, toolPolicyPath("files", "plain"), `{"policy":"deny"}`); status != http.StatusOK {
		t.Fatalf("set policy: %d %s", status, body)
	}
	call := strings.Replace(handlers.ServerPath(handlers.PathToolCall, "files"), ":tool", "plain", 1)
	status, body := f.send(t, http.MethodPost, call, `{}`)
	if status != http.StatusForbidden || errorCode(t, body) != "denied_by_policy" {
		t.Errorf("API call: got %d %s, want 403 denied_by_policy", status, body)
	}
	r := f.ui(t, http.MethodPost, handlers.RunFormPath("files", "plain"), url.Values{"mode": {"raw"}, "raw": {"{}"}}, "pt-BR")
	wantToast(t, r, http.StatusForbidden, "denied_by_policy", "negada pela política")
	if list, err := f.svc.List(t.Context(), testScope, domain.InvocationFilter{}); err != nil || len(list) != 0 {
		t.Errorf("refused calls were recorded: %d, %v", len(list), err)
	}
}

func TestApproveAndDenyAPI(t *testing.T) {
	f := newPolicyFixture(t)
	sub := f.svc.Feed().Subscribe(testScope)
	defer sub.Close()
	hold := func() string {
		t.Helper()
		inv, err := f.svc.Start(t.Context(), domain.CallRequest{Scope: testScope, Server: "files", Tool: "delete_file",
			Arguments: json.RawMessage(`{"path":"/tmp/a"}`), Source: domain.SourceGateway, Forwarded: true,
			Client: domain.ClientIdentity{Name: "Claude Code", Version: "1.2", Token: "laptop"}})
		if err != nil {
			t.Fatal(err)
		}
		(&invFixture{fixture: f.fixture}).waitInvocation(t, sub, inv.ID, domain.InvocationAwaitingApproval)
		return inv.ID
	}
	approved := hold()
	status, body := f.send(t, http.MethodPost, handlers.InvocationPath(handlers.PathInvocationApprove, approved), "")
	var got handlers.InvocationDTO
	if err := json.Unmarshal(body, &got); err != nil || status != http.StatusOK {
		t.Fatalf("approve: %d %s", status, body)
	}
	if got.Source != "gateway" || got.Client == nil || got.Client.Name != "Claude Code" || got.Client.Token != "laptop" {
		t.Errorf("approved call: source %q client %+v", got.Source, got.Client)
	}
	(&invFixture{fixture: f.fixture}).waitInvocation(t, sub, approved, domain.InvocationSuccess)
	status, body = f.send(t, http.MethodPost, handlers.InvocationPath(handlers.PathInvocationDeny, approved), "")
	if status != http.StatusConflict || errorCode(t, body) != "not_awaiting_approval" {
		t.Errorf("deny after approval: got %d %s, want 409 not_awaiting_approval", status, body)
	}

	denied := hold()
	status, body = f.send(t, http.MethodPost, handlers.InvocationPath(handlers.PathInvocationDeny, denied), "")
	if err := json.Unmarshal(body, &got); err != nil || status != http.StatusOK {
		t.Fatalf("deny: %d %s", status, body)
	}
	if got.Status != "denied" || got.ErrorCode == nil || *got.ErrorCode != domain.ErrorCodeDenied {
		t.Errorf("denied call: got %s %v", got.Status, got.ErrorCode)
	}
	status, _ = f.send(t, http.MethodPost, handlers.InvocationPath(handlers.PathInvocationApprove, "nope"), "")
	if status != http.StatusNotFound {
		t.Errorf("approve an unknown call: got %d, want 404", status)
	}

	// The history filters by source and client.
	status, body = f.send(t, http.MethodGet, handlers.PathInvocations+"?source=gateway&client=Claude+Code", "")
	var page handlers.InvocationListDTO
	if err := json.Unmarshal(body, &page); err != nil || status != http.StatusOK || len(page.Invocations) != 2 {
		t.Errorf("filter by source and client: %d, %d invocations", status, len(page.Invocations))
	}
	status, body = f.send(t, http.MethodGet, handlers.PathInvocations+"?source=api", "")
	if err := json.Unmarshal(body, &page); err != nil || status != http.StatusOK || len(page.Invocations) != 0 {
		t.Errorf("filter by another source: %d, %d invocations", status, len(page.Invocations))
	}
	if status, _ = f.send(t, http.MethodGet, handlers.PathInvocations+"?source=carrier-pigeon", ""); status != http.StatusBadRequest {
		t.Errorf("unknown source: got %d, want 400", status)
	}
}

func TestToolPolicySelectInDrawer(t *testing.T) {
	f := newPolicyFixture(t)
	r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "files"), nil, "zh-Hans")
	if r.status != http.StatusOK {
		t.Fatalf("drawer: %d", r.status)
	}
	sel := r.doc.Find(`[data-testid="tool-policy"][data-tool="delete_file"] select`)
	if got := sel.Find("option[selected]").AttrOr("value", ""); got != "default" {
		t.Errorf("destructive tool's selected option: got %q, want default", got)
	}
	if got := r.doc.Find(`[data-testid="tool-policy"][data-tool="delete_file"]`).AttrOr("data-policy", ""); got != "ask" {
		t.Errorf("destructive tool's policy: got %q, want ask", got)
	}
	if got := r.doc.Find(`[data-tool="plain"] [data-testid="tool-unannotated"]`).Text(); got != "无注解" {
		t.Errorf("not-annotated mark: got %q", got)
	}
	if got := r.doc.Find(`[data-tool="read_file"] [data-testid="tool-unannotated"]`).Length(); got != 0 {
		t.Errorf("annotated tool marked as not annotated")
	}
	action := sel.AttrOr("hx-put", "")
	if action != handlers.ToolPolicyPath("files", "delete_file") {
		t.Errorf("hx-put: got %q", action)
	}
	r = f.ui(t, http.MethodPut, action, url.Values{"policy": {"deny"}}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("change: %d %s", r.status, r.body)
	}
	if got := r.doc.Find(`[data-testid="tool-policy"]`).AttrOr("data-policy", ""); got != "deny" {
		t.Errorf("after change: got %q, want deny", got)
	}
	if got := r.doc.Find("option[selected]").AttrOr("value", ""); got != "deny" {
		t.Errorf("selected after change: got %q, want deny", got)
	}
	r = f.ui(t, http.MethodPut, action, url.Values{"policy": {"never"}}, "en")
	wantToast(t, r, http.StatusBadRequest, "bad_request", "")
}

func TestAskAllToggleInDrawer(t *testing.T) {
	f := newPolicyFixture(t)
	r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "files"), nil, "en")
	toggle := r.doc.Find(`[data-testid="ask-all-toggle"]`)
	if _, on := toggle.Attr("checked"); on || toggle.AttrOr("hx-put", "") != handlers.ServerPath(handlers.PathUIServerPolicy, "files") {
		t.Fatalf("toggle: checked %v, hx-put %q", on, toggle.AttrOr("hx-put", ""))
	}
	r = f.ui(t, http.MethodPut, handlers.ServerPath(handlers.PathUIServerPolicy, "files"), url.Values{"askAll": {"true"}}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("turn on: %d %s", r.status, r.body)
	}
	if _, on := r.doc.Find(`[data-testid="ask-all-toggle"]`).Attr("checked"); !on {
		t.Error("toggle not checked after turning it on")
	}
	if got := r.doc.Find(`[data-testid="tool-policy"][data-tool="plain"]`).AttrOr("data-policy", ""); got != "ask" {
		t.Errorf("plain tool with ask-all: got %q, want ask", got)
	}
	r = f.ui(t, http.MethodPut, handlers.ServerPath(handlers.PathUIServerPolicy, "files"), url.Values{}, "en")
	if got := r.doc.Find(`[data-testid="tool-policy"][data-tool="plain"]`).AttrOr("data-policy", ""); got != "allow" {
		t.Errorf("plain tool after turning ask-all off: got %q, want allow", got)
	}
}

func TestToolAsListedCarriesItsPolicy(t *testing.T) {
	no := false
	b, err := json.Marshal(handlers.ToolDTO{Raw: json.RawMessage(`{"name":"x","_meta":{"k":1}}`), RiskTier: "medium", Policy: "ask", Annotated: &no})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"x","_meta":{"k":1},"riskTier":"medium","policy":"ask","annotated":false}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}
