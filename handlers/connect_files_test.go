package handlers_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/clientconfig"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// cursorConfig is a Cursor config with three servers of its own: one
// whose name Switchboard's settings already use, and one whose command
// is markup that must reach the page as text.
const cursorConfig = `{
  "mcpServers": {
    "git": {"command": "uvx", "args": ["mcp-server-git"]},
    "web": {"url": "http://127.0.0.1:9/sse"},
    "odd": {"command": "<script>alert(1)</script>"}
  },
  "theme": "dark"
}
`

// connectFilesFixture is the handler stack with client tokens in SQLite
// and the clients' files under a HOME in a temp dir: Cursor's config
// holds cursorConfig, and Switchboard's settings file already has "web".
func connectFilesFixture(t *testing.T) (f *fixture, cursor, settings string, tokens *domain.ClientTokens) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	cursor = filepath.Join(home, ".cursor", "mcp.json")
	settings = filepath.Join(t.TempDir(), "settings.json")
	if err := os.MkdirAll(filepath.Dir(cursor), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cursor, []byte(cursorConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"mcpServers": {"web": {"command": "mine"}}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tokens, err = domain.NewClientTokens(t.Context(), domain.ClientTokensOptions{Store: db.ClientTokenStore(), Clock: domaintest.NewClock(testNow)})
	if err != nil {
		t.Fatal(err)
	}
	f = newFixture(t, func(o *handlers.Options) {
		o.ClientTokens = tokens
		o.ClientConfigs = clientconfig.New(clientconfig.Options{Settings: settings, Getenv: os.Getenv, GOOS: "linux"})
	})
	return f, cursor, settings, tokens
}

// connectFileForm posts form to the client's panel endpoint pattern and
// returns the answer parsed.
func connectFileForm(t *testing.T, f *fixture, pattern, client string, form url.Values) *goquery.Document {
	t.Helper()
	path := strings.Replace(pattern, ":client", client, 1)
	hdr := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Hx-Request": {"true"}}
	status, body := f.doBody(t, http.MethodPost, path, hdr, form.Encode())
	if status != http.StatusOK {
		t.Fatalf("POST %s: got %d %s", path, status, body)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func notes(doc *goquery.Document) []string {
	var ids []string
	doc.Find(`[data-testid="connect-file-note"]`).Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-note")
		ids = append(ids, id)
	})
	return ids
}

// TestConnectPageImportsAClientsServersAndUndoes: the page lists the
// servers Cursor's file holds (a name Switchboard has is unchecked and
// said so; markup stays text), confirms the choice, writes Switchboard's
// entry with a new token while moving the chosen servers into the
// settings, and its undo restores the file and takes them out again.
func TestConnectPageImportsAClientsServersAndUndoes(t *testing.T) {
	f, cursor, settings, tokens := connectFilesFixture(t)
	status, body := f.do(t, http.MethodGet, handlers.PathConnect, nil)
	if status != http.StatusOK {
		t.Fatalf("page: got %d", status)
	}
	if bytes.Contains(body, []byte("<script>alert")) {
		t.Fatalf("the odd server's command reached the page as markup")
	}
	page, _ := goquery.NewDocumentFromReader(bytes.NewReader(body))
	panel := page.Find(`[data-testid="connect-file"][data-client="cursor"]`)
	if got := panel.Find(`[data-testid="connect-file-path"]`).Text(); got != cursor {
		t.Errorf("path: got %q, want %q", got, cursor)
	}
	checked := map[string]bool{}
	panel.Find(`[data-testid="connect-file-server"]`).Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("data-name")
		_, checked[name] = s.Find(`input[name="import"]`).Attr("checked")
	})
	if want := map[string]bool{"git": true, "odd": true, "web": false}; len(checked) != 3 || checked["git"] != want["git"] || checked["odd"] != want["odd"] || checked["web"] {
		t.Errorf("servers and their boxes: got %v, want %v", checked, want)
	}
	if panel.Find(`[data-name="web"] [data-testid="connect-file-taken"]`).Length() != 1 {
		t.Errorf("web is not shown as one Switchboard already has")
	}
	if !strings.Contains(panel.Find(`[data-name="odd"] code`).Text(), "<script>alert(1)</script>") {
		t.Errorf("the odd command is not shown as text: %q", panel.Find(`[data-name="odd"] code`).Text())
	}
	if page.Find(`[data-testid="connect-file"][data-client="claude-desktop"] [data-testid="connect-file-unavailable"]`).Length() != 1 {
		t.Errorf("claude desktop on linux: want the notice that it has no file here")
	}

	doc := connectFileForm(t, f, handlers.PathUIConnectReview, "cursor", url.Values{})
	if doc.Find(`[data-testid="connect-file-error"]`).Length() != 1 {
		t.Errorf("nothing chosen: want the error")
	}
	doc = connectFileForm(t, f, handlers.PathUIConnectReview, "cursor", url.Values{"write": {"1"}, "import": {"git", "web", "nosuch"}})
	confirm := doc.Find(`[data-testid="connect-file-confirm"]`)
	if confirm.Length() != 1 || !strings.Contains(confirm.Text(), "git, web") || !strings.Contains(confirm.Text(), "already have web") {
		t.Fatalf("confirmation: got %q", confirm.Text())
	}
	if b, _ := os.ReadFile(cursor); string(b) != cursorConfig {
		t.Fatalf("the review changed the file")
	}
	var hidden []string
	confirm.Find(`input[type="hidden"]`).Each(func(_ int, s *goquery.Selection) {
		n, _ := s.Attr("name")
		v, _ := s.Attr("value")
		hidden = append(hidden, n+"="+v)
	})
	if strings.Join(hidden, "&") != "write=1&import=git&import=web" {
		t.Errorf("the confirmation carries %v", hidden)
	}

	doc = connectFileForm(t, f, handlers.PathUIConnectApply, "cursor", url.Values{"write": {"1"}, "import": {"git"}})
	if got := strings.Join(notes(doc), " "); got != "ConnectFileWrote ConnectFileAdded ConnectFileBackedUp" {
		t.Errorf("notes after the write: got %q", got)
	}
	if oob, _ := doc.Find(`#connect-file-status-cursor`).Attr("hx-swap-oob"); oob != "innerHTML" {
		t.Errorf("the notes do not go into the status region")
	}
	if doc.Find(`#connect-tokens-slot[hx-swap-oob] [data-testid="connect-token-row"][data-name="cursor"]`).Length() != 1 {
		t.Errorf("the answer does not put the new token in the list")
	}
	var client struct {
		MCPServers map[string]struct {
			URL     string            `json:"url"`
			Headers map[string]string `json:"headers"`
		} `json:"mcpServers"`
		Theme string `json:"theme"`
	}
	b, _ := os.ReadFile(cursor)
	if err := json.Unmarshal(b, &client); err != nil {
		t.Fatalf("client file: %v\n%s", err, b)
	}
	if _, ok := client.MCPServers["git"]; ok || len(client.MCPServers) != 3 || client.Theme != "dark" {
		t.Errorf("client file after the write (want sb, web, odd; theme kept):\n%s", b)
	}
	secret := strings.TrimPrefix(client.MCPServers["sb"].Headers["Authorization"], "Bearer ")
	if name, ok := tokens.Verify(t.Context(), secret); !ok || name != "cursor" {
		t.Errorf("the written token: got %q, %v; want cursor's", name, ok)
	}
	if !strings.HasPrefix(client.MCPServers["sb"].URL, f.srv.URL) {
		t.Errorf("the entry points at %q, want %s", client.MCPServers["sb"].URL, f.srv.URL)
	}
	b, _ = os.ReadFile(settings)
	if !strings.Contains(string(b), "mcp-server-git") || !strings.Contains(string(b), "mine") {
		t.Errorf("settings after the import (want git added, web as it was):\n%s", b)
	}

	doc = connectFileForm(t, f, handlers.PathUIConnectReview, "cursor", url.Values{"undo": {"1"}})
	if doc.Find(`[data-testid="connect-file-confirm"] form`).AttrOr("hx-post", "") != strings.Replace(handlers.PathUIConnectUndo, ":client", "cursor", 1) {
		t.Fatalf("undo confirmation: got %q", doc.Text())
	}
	doc = connectFileForm(t, f, handlers.PathUIConnectUndo, "cursor", nil)
	if got := strings.Join(notes(doc), " "); got != "ConnectFileRestored ConnectFileRemoved" {
		t.Errorf("notes after the undo: got %q", got)
	}
	if b, _ := os.ReadFile(cursor); string(b) != cursorConfig {
		t.Errorf("client file after the undo:\n%s", b)
	}
	if b, _ := os.ReadFile(settings); strings.Contains(string(b), "mcp-server-git") || !strings.Contains(string(b), "mine") {
		t.Errorf("settings after the undo (want git out, web kept):\n%s", b)
	}
	doc = connectFileForm(t, f, handlers.PathUIConnectUndo, "cursor", nil)
	if doc.Find(`[data-testid="connect-file-error"]`).Length() != 1 {
		t.Errorf("a second undo: want the no-backup error")
	}
	if status, _ := f.doBody(t, http.MethodPost, strings.Replace(handlers.PathUIConnectApply, ":client", "notepad", 1),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, "write=1"); status != http.StatusNotFound {
		t.Errorf("unknown client: got %d, want 404", status)
	}
}
