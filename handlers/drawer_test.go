package handlers_test

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// uiResponse is one answer of a dashboard fragment endpoint.
type uiResponse struct {
	status int
	header http.Header
	doc    *goquery.Document
	body   string
}

// ui sends one htmx-style request (a form body for POST) and parses the
// HTML fragment it answers with.
func (f *fixture) ui(t *testing.T, method, path string, form url.Values, lang string) uiResponse {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(t.Context(), method, f.srv.URL+path, body)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	req.Header.Set("HX-Request", "true")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("parse body: %v", err)
	}
	return uiResponse{status: resp.StatusCode, header: resp.Header, doc: doc, body: string(raw)}
}

// wantToast checks that an answer is a localized toast for the page's
// alert region.
func wantToast(t *testing.T, r uiResponse, status int, code, text string) {
	t.Helper()
	if r.status != status {
		t.Errorf("status: got %d, want %d; body: %s", r.status, status, r.body)
	}
	if got := r.header.Get("HX-Retarget"); got != "#toast" {
		t.Errorf("HX-Retarget: got %q, want #toast", got)
	}
	if got := r.header.Get("HX-Reswap"); got != "innerHTML" {
		t.Errorf("HX-Reswap: got %q, want innerHTML", got)
	}
	msg := r.doc.Find(`[data-testid="toast-message"]`)
	if got, _ := msg.Attr("data-code"); got != code {
		t.Errorf("toast code: got %q, want %q", got, code)
	}
	if got := msg.Find("p").Text(); !strings.Contains(got, text) {
		t.Errorf("toast text: got %q, want it to contain %q", got, text)
	}
}

func filesCaps() domain.Capabilities {
	return domain.Capabilities{
		Tools: []domain.Tool{
			{Name: "read_file", Annotations: domain.Annotations{ReadOnlyHint: ptr(true)}},
			{Name: "delete_file", Annotations: domain.Annotations{DestructiveHint: ptr(true)}},
		},
		Prompts: []domain.Prompt{{Name: "summarize", Arguments: []domain.PromptArgument{{Name: "text", Required: true}}}},
	}
}

func TestDrawerFragment(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), filesCaps())

	r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "files"), nil, "pt-BR,pt;q=0.9")
	if r.status != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body: %s", r.status, r.body)
	}
	d := r.doc.Find(`[data-testid="drawer"][data-server="files"]`)
	if d.Length() != 1 {
		t.Fatalf("got %d drawers for files, want 1; body: %s", d.Length(), r.body)
	}
	if got := r.doc.Find(`[data-testid="tool-item"]`).Length(); got != 2 {
		t.Errorf("tool items: got %d, want 2", got)
	}
	if got := r.doc.Find(`[data-testid="action-restart"]`).Text(); !strings.Contains(got, "Reiniciar") {
		t.Errorf("restart label: got %q, want Portuguese", got)
	}
	if got := r.doc.Find(`[data-testid="drawer-protocol"]`).Text(); strings.TrimSpace(got) != "2025-11-25" {
		t.Errorf("protocol: got %q, want 2025-11-25", got)
	}
	if got, _ := r.doc.Find(`[data-testid="action-disable"]`).Attr("hx-post"); got != handlers.ServerPath(handlers.PathUIDisable, "files") {
		t.Errorf("disable posts to %q, want %q", got, handlers.ServerPath(handlers.PathUIDisable, "files"))
	}
	if csp := r.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("CSP: got %q, want script-src 'self'", csp)
	}
}

func TestDrawerLivePart(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), filesCaps())

	r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "files")+"?part=live", nil, "")
	if r.status != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body: %s", r.status, r.body)
	}
	if r.doc.Find(`[data-testid="drawer"]`).Length() != 0 {
		t.Errorf("got a whole drawer, want only its live parts")
	}
	caps := r.doc.Find(`[data-testid="drawer-caps"]`)
	if _, oob := caps.Attr("hx-swap-oob"); caps.Length() != 1 || oob {
		t.Errorf("got %d capability sections (oob %v), want 1 swapped in place", caps.Length(), oob)
	}
	if oob, _ := r.doc.Find(`[data-testid="drawer-actions"]`).Attr("hx-swap-oob"); oob != "outerHTML" {
		t.Errorf("actions hx-swap-oob: got %q, want outerHTML", oob)
	}
}

func TestDrawerUnknownServerAnswersToast(t *testing.T) {
	f := newFixture(t)
	evil := "<b>gone</b>"

	r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, evil), nil, "en")
	wantToast(t, r, http.StatusNotFound, "not_found", "There is no server named "+evil)
	if r.doc.Find("b").Length() != 0 {
		t.Errorf("the server name became markup: %s", r.body)
	}

	r = f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "nope"), nil, "zh-Hans")
	wantToast(t, r, http.StatusNotFound, "not_found", "已不存在名为 nope 的服务器")
	if strings.Contains(r.body, "server not found") {
		t.Errorf("the toast carries the domain's English error: %s", r.body)
	}
}
