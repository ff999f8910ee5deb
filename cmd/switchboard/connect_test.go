package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// connectFixture is a real handler stack with client tokens kept in
// SQLite, reached over a real listener, and the owner's token in a file.
func connectFixture(t *testing.T) (addr, tokenFile string, tokens *domain.ClientTokens) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tokens, err = domain.NewClientTokens(context.Background(), domain.ClientTokensOptions{Store: db.ClientTokenStore()})
	if err != nil {
		t.Fatal(err)
	}
	const owner = "connect-test-owner-token-0123456789abcdef"
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: domaintest.NewConnector(), Store: domaintest.NewStore(), Clock: domaintest.NewClock(time.Unix(0, 0)),
		Scope: domain.Scope{User: domain.LocalUser, Workspace: "test"},
	}})
	done := make(chan struct{})
	srv := httptest.NewServer(handlers.New(handlers.Options{Fleet: fleet, Token: owner, ClientTokens: tokens, Done: done}))
	t.Cleanup(func() { close(done); srv.Close(); fleet.Close(context.Background()) })
	tokenFile = filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(owner+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(srv.URL, "http://"), tokenFile, tokens
}

func TestConnectWritesAndUndoes(t *testing.T) {
	addr, tokenFile, tokens := connectFixture(t)
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	original := "{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\"}\n  },\n  \"theme\": \"dark\"\n}\n"
	if err := os.WriteFile(cfg, []byte(original), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(string) string { return "" }
	connect := func(stdin string, args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := run(context.Background(), append([]string{"connect", "cursor", "--addr", addr, "--token-file", tokenFile, "--file", cfg}, args...),
			getenv, strings.NewReader(stdin), &out, &errOut)
		return out.String() + errOut.String(), err
	}

	if out, err := connect("n\n", "--write"); err == nil || !strings.Contains(out, "[y/N]") {
		t.Fatalf("declined --write: got %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(cfg); string(b) != original {
		t.Fatalf("declined --write changed the file:\n%s", b)
	}
	out, err := connect("", "--write", "--yes")
	if err != nil {
		t.Fatalf("--write --yes: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(cfg)
	var doc struct {
		MCPServers map[string]struct {
			URL     string            `json:"url"`
			Headers map[string]string `json:"headers"`
			Command string            `json:"command"`
		} `json:"mcpServers"`
		Theme string `json:"theme"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("written file: %v\n%s", err, b)
	}
	sb := doc.MCPServers["sb"]
	secret := strings.TrimPrefix(sb.Headers["Authorization"], "Bearer ")
	if sb.URL != "http://"+addr+"/mcp" || doc.MCPServers["fs"].Command != "npx" || doc.Theme != "dark" {
		t.Errorf("written file:\n%s", b)
	}
	if name, ok := tokens.Verify(context.Background(), secret); !ok || !strings.HasPrefix(name, "cursor") {
		t.Errorf("the written token does not verify as cursor's: %q, %v", name, ok)
	}
	if info, _ := os.Stat(cfg); info.Mode().Perm() != 0o644 {
		t.Errorf("mode: got %v, want 0644 kept", info.Mode().Perm())
	}

	if out, err := connect("", "--undo"); err != nil {
		t.Fatalf("--undo: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(cfg); string(b) != original {
		t.Errorf("after --undo:\n%s\nwant the original", b)
	}
	if _, err := connect("", "--undo"); err == nil {
		t.Errorf("second --undo with no backup left: got nil error")
	}

	// Printing alone creates another token, numbered, and writes nothing.
	out, err = connect("")
	if err != nil || !strings.Contains(out, `"mcpServers"`) || !strings.Contains(out, "cursor-") {
		t.Errorf("print: got %v\n%s", err, out)
	}
	if _, err := connect("", "--write", "--yes", "--undo"); err != nil {
		t.Logf("undo wins over write: %v", err)
	}
	if err := run(context.Background(), []string{"connect", "notepad"}, getenv, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Errorf("unknown client: got nil error")
	}
}

func TestConnectImportMovesTheClientsServers(t *testing.T) {
	addr, tokenFile, _ := connectFixture(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "settings.json")
	settings := filepath.Join(dir, "switchboard", "settings.json")
	original := `{"mcpServers": {"git": {"command": "uvx", "args": ["mcp-server-git"]}, "web": {"httpUrl": "http://127.0.0.1:9/mcp"}}, "theme": "x"}`
	if err := os.WriteFile(cfg, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"mcpServers": {"web": {"command": "mine"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"connect", "gemini-cli", "--addr", addr, "--token-file", tokenFile, "--file", cfg,
		"--settings", settings, "--write", "--import"}, func(string) string { return "" }, strings.NewReader("y\n"), &out, &bytes.Buffer{})
	if err != nil {
		t.Fatalf("connect --import: %v\n%s", err, out.String())
	}
	var client, sb struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Theme      string                     `json:"theme"`
	}
	b, _ := os.ReadFile(cfg)
	if err := json.Unmarshal(b, &client); err != nil || len(client.MCPServers) != 1 || client.MCPServers["sb"] == nil || client.Theme != "x" {
		t.Errorf("client file after --import (want sb alone, theme kept):\n%s", b)
	}
	b, _ = os.ReadFile(settings)
	if err := json.Unmarshal(b, &sb); err != nil || !strings.Contains(string(sb.MCPServers["git"]), "mcp-server-git") || !strings.Contains(string(sb.MCPServers["web"]), "mine") {
		t.Errorf("settings after --import (want git added, web kept as it was):\n%s", b)
	}
	if !strings.Contains(out.String(), "already have a server called web") {
		t.Errorf("output does not say web was kept:\n%s", out.String())
	}
	if err := run(context.Background(), []string{"connect", "gemini-cli", "--file", cfg, "--undo"}, func(string) string { return "" }, strings.NewReader(""), &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(cfg); string(b) != original {
		t.Errorf("after --undo:\n%s", b)
	}
	b, _ = os.ReadFile(settings)
	if strings.Contains(string(b), "mcp-server-git") || !strings.Contains(string(b), "mine") {
		t.Errorf("settings after --undo (want git taken out again, web kept):\n%s", b)
	}
	if !strings.Contains(out.String(), "Took git out of Switchboard's settings") {
		t.Errorf("--undo does not say git was taken out:\n%s", out.String())
	}
	if left, _ := filepath.Glob(cfg + ".switchboard-backup-*"); len(left) != 0 {
		t.Errorf("left beside the client file after --undo: %v", left)
	}
}

// TestConnectUndoKeepsEditedImports: a server the import added and the
// person edited since stays in Switchboard's settings, and undo says so.
func TestConnectUndoKeepsEditedImports(t *testing.T) {
	addr, tokenFile, _ := connectFixture(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mcp.json")
	settings := filepath.Join(dir, "switchboard", "settings.json")
	original := `{"mcpServers": {"git": {"command": "uvx", "args": ["mcp-server-git"]}, "time": {"command": "uvx", "args": ["mcp-server-time"]}}}`
	if err := os.WriteFile(cfg, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(string) string { return "" }
	var out bytes.Buffer
	if err := run(context.Background(), []string{"connect", "cursor", "--addr", addr, "--token-file", tokenFile, "--file", cfg,
		"--settings", settings, "--write", "--import", "--yes"}, getenv, strings.NewReader(""), &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("connect --import: %v\n%s", err, out.String())
	}
	b, _ := os.ReadFile(settings)
	edited := strings.Replace(string(b), "mcp-server-time", "mcp-server-time-edited", 1)
	if edited == string(b) {
		t.Fatalf("settings after --import lack time:\n%s", b)
	}
	if err := os.WriteFile(settings, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"connect", "cursor", "--file", cfg, "--undo"}, getenv, strings.NewReader(""), &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("--undo: %v\n%s", err, out.String())
	}
	b, _ = os.ReadFile(settings)
	if strings.Contains(string(b), "mcp-server-git") || !strings.Contains(string(b), "mcp-server-time-edited") {
		t.Errorf("settings after --undo (want git out, the edited time kept):\n%s", b)
	}
	if !strings.Contains(out.String(), "Kept time in Switchboard's settings") {
		t.Errorf("--undo does not say time was kept:\n%s", out.String())
	}
	if b, _ := os.ReadFile(cfg); string(b) != original {
		t.Errorf("client file after --undo:\n%s", b)
	}
}
