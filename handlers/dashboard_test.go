package handlers_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/static"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestDashboardRendersEveryServer(t *testing.T) {
	f := newFixture(t, func(o *handlers.Options) { o.Demo = views.DemoProps{Active: true, SettingsPath: settingsPath} })
	f.connect(t, stdio("alpha"), domain.Capabilities{Tools: []domain.Tool{{Name: "a"}, {Name: "b"}}})
	f.attach(t, stdio("beta"))

	status, body := f.do(t, http.MethodGet, handlers.PathDashboard, http.Header{"Accept-Language": {"en-US,en;q=0.8"}})
	if status != http.StatusOK {
		t.Fatalf("GET /: %d %s", status, body)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Find(`[data-testid="server-list"] [data-testid="status-chip"][data-server="alpha"] .chip-badge`).Text(); got != "2 tools" {
		t.Errorf("alpha badge %q, want 2 tools", got)
	}
	if got, _ := doc.Find(`[data-testid="server-list"] [data-testid="status-chip"][data-server="beta"]`).Attr("data-state"); got != "connecting" {
		t.Errorf("beta state %q, want connecting", got)
	}
	if got := doc.Find(`header [data-testid="header-summary"] .sum-long`).Text(); got != "2 servers1 connected0 failing1 starting" {
		t.Errorf("header summary %q, want 2 servers, 1 connected, 0 failing, 1 starting", got)
	}
	if doc.Find(`[data-testid="demo-notice"]`).Length() != 1 {
		t.Errorf("demo notice missing in demo mode")
	}
	href, _ := doc.Find(`link[rel="stylesheet"]`).Attr("href")
	if href != handlers.AssetURL(static.DashboardCSS) {
		t.Errorf("stylesheet %q, want %q", href, handlers.AssetURL(static.DashboardCSS))
	}
}

func TestDashboardHeaders(t *testing.T) {
	f := newFixture(t)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, f.srv.URL+handlers.PathDashboard, nil)
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "object-src 'none'", "base-uri 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("CSP %q allows inline script or eval", csp)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type %q, want text/html", ct)
	}
}

func TestDashboardLanguage(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name   string
		header http.Header
		lang   string
	}{
		{"accept-language", http.Header{"Accept-Language": {"pt-BR,pt;q=0.9"}}, "pt-BR"},
		{"cookie wins", http.Header{"Accept-Language": {"pt-BR"}, "Cookie": {"lang=zh-Hans"}}, "zh-Hans"},
		{"unsupported falls back to English", http.Header{"Accept-Language": {"ko-KR"}}, "en"},
		{"a regional variant", http.Header{"Accept-Language": {"es-MX,es;q=0.9"}}, "es"},
		{"Arabic of Egypt", http.Header{"Accept-Language": {"ar-EG"}}, "ar"},
	}
	for _, tt := range tests {
		_, body := f.do(t, http.MethodGet, handlers.PathDashboard, tt.header)
		doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(body))
		if got, _ := doc.Find("html").Attr("lang"); got != tt.lang {
			t.Errorf("%s: lang %q, want %q", tt.name, got, tt.lang)
		}
	}
}

func TestStaticFiles(t *testing.T) {
	f := newFixture(t)
	status, body := f.do(t, http.MethodGet, handlers.AssetURL(static.DashboardCSS), nil)
	if status != http.StatusOK || !bytes.Contains(body, []byte("prefers-reduced-motion")) {
		t.Errorf("stylesheet: %d, %d bytes; want 200 with the reduced-motion rules", status, len(body))
	}
	for _, p := range []string{handlers.PathStatic + "/nope.css", handlers.PathStatic + "/css/", handlers.PathStatic + "/../go.mod"} {
		if status, _ := f.do(t, http.MethodGet, p, nil); status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, status)
		}
	}
}

// rawGet sends one GET with the given Accept-Encoding and no transparent
// decompression, so the test sees what went over the wire.
func (f *fixture) rawGet(t *testing.T, path, encoding string) (*http.Response, []byte) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.srv.URL+path, nil)
	authorize(req)
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding)
	}
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") == "text/event-stream" {
		return resp, nil // a stream never ends by itself
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read: %v", path, err)
	}
	return resp, body
}

func TestCompression(t *testing.T) {
	f := newFixture(t)
	f.attach(t, stdio("alpha"))
	for _, p := range []string{handlers.PathDashboard, handlers.AssetURL(static.DashboardCSS), handlers.AssetURL(static.HTMX),
		handlers.PathStatic + "/css/app.css"} {
		resp, body := f.rawGet(t, p, "gzip")
		if got := resp.Header.Get("Content-Encoding"); got != "gzip" {
			t.Errorf("%s: Content-Encoding %q, want gzip", p, got)
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if _, err := io.ReadAll(zr); err != nil {
			t.Errorf("%s: gzip body: %v", p, err)
		}
	}
	for _, p := range []string{handlers.PathPageEvents, handlers.PathEvents} {
		resp, _ := f.rawGet(t, p, "gzip")
		if got := resp.Header.Get("Content-Encoding"); got != "" {
			t.Errorf("%s: Content-Encoding %q, want none: an event stream must not be buffered", p, got)
		}
	}
	if resp, _ := f.rawGet(t, handlers.PathDashboard, ""); resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip sent to a client that did not ask for it")
	}
}

func TestScriptsAreServed(t *testing.T) {
	f := newFixture(t)
	_, body := f.do(t, http.MethodGet, handlers.PathDashboard, nil)
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var srcs []string
	doc.Find("script").Each(func(_ int, s *goquery.Selection) { srcs = append(srcs, s.AttrOr("src", "")) })
	want := []string{handlers.AssetURL(static.HTMX), handlers.AssetURL(static.HTMXSSE), handlers.AssetURL(static.DashboardJS)}
	if strings.Join(srcs, " ") != strings.Join(want, " ") {
		t.Fatalf("scripts: got %v, want %v in this order", srcs, want)
	}
	workbench := doc.Find("#drawer-slot").AttrOr("data-workbench-js", "")
	if workbench != handlers.AssetURL(static.WorkbenchJS) {
		t.Errorf("drawer slot's workbench: got %q, want %q", workbench, handlers.AssetURL(static.WorkbenchJS))
	}
	for _, src := range append(want, workbench) {
		resp, body := f.rawGet(t, src, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Type"), "javascript") || len(body) == 0 {
			t.Errorf("%s: got %d %q with %d bytes, want 200 JavaScript", src, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
		}
	}
	// The drawer's and cards' stylesheet comes with the first drawer or card.
	sheet := doc.Find("#drawer-slot").AttrOr("data-workbench-css", "")
	if sheet != handlers.AssetURL(static.WorkbenchCSS) {
		t.Errorf("drawer slot's workbench stylesheet: got %q, want %q", sheet, handlers.AssetURL(static.WorkbenchCSS))
	}
	if resp, body := f.rawGet(t, sheet, ""); resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Type"), "text/css") || len(body) == 0 {
		t.Errorf("%s: got %d %q with %d bytes, want 200 CSS", sheet, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
	if got, _ := doc.Find(`[data-testid="live"]`).Attr("sse-connect"); got != handlers.PathPageEvents {
		t.Errorf("sse-connect: got %q, want %q", got, handlers.PathPageEvents)
	}
}

// TestDashboardStateFilter: the header summary's links (?state=failing)
// narrow the server list; the address keeps the filter, so a reload or a
// shared link shows the same list.
func TestDashboardStateFilter(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("alpha"), domain.Capabilities{})
	for _, tt := range []struct{ query, want string }{{"?state=failing", "failing"}, {"?state=nonsense", ""}, {"", ""}} {
		status, body := f.do(t, http.MethodGet, handlers.PathDashboard+tt.query, nil)
		if status != http.StatusOK {
			t.Fatalf("GET /%s: %d", tt.query, status)
		}
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if got := doc.Find(`[data-testid="servers"]`).AttrOr("data-state-filter", "?"); got != tt.want {
			t.Errorf("%q: list filter %q, want %q", tt.query, got, tt.want)
		}
		if got := doc.Find(`#header-summary [aria-current="true"]`).AttrOr("data-group", "?"); got != tt.want {
			t.Errorf("%q: current summary link %q, want %q", tt.query, got, tt.want)
		}
	}
}
