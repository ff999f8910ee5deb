package settingsfile_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/switchboard-mcp/switchboard/settingsfile"
)

func TestAddServersSkipsTakenNamesAndKeepsTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	original := "{\n  \"mcp\": {\"excluded\": []},\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"mine\"}\n  }\n}\n"
	if err := os.WriteFile(path, []byte(original), 0o640); err != nil {
		t.Fatal(err)
	}
	var e settingsfile.Editor
	added, err := e.AddServers(context.Background(), path, map[string]json.RawMessage{
		"fs":  json.RawMessage(`{"command":"theirs"}`),
		"git": json.RawMessage(`{"command":"uvx","args":["mcp-server-git"]}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(added, []string{"git"}) {
		t.Errorf("added: got %v, want [git]", added)
	}
	b, _ := os.ReadFile(path)
	var doc struct {
		MCPServers map[string]struct {
			Command string `json:"command"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if doc.MCPServers["fs"].Command != "mine" || doc.MCPServers["git"].Command != "uvx" {
		t.Errorf("file after AddServers:\n%s", b)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("mode: got %v, want 0640", info.Mode().Perm())
	}
	if string(b[:len("{\n  \"mcp\": {\"excluded\": []},\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"mine\"}")]) != original[:len("{\n  \"mcp\": {\"excluded\": []},\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"mine\"}")] {
		t.Errorf("the person's bytes changed:\n%s", b)
	}

	missing := filepath.Join(t.TempDir(), "new", "settings.json")
	if added, err := e.AddServers(context.Background(), missing, map[string]json.RawMessage{"a": json.RawMessage(`{"url":"http://x"}`)}); err != nil || len(added) != 1 {
		t.Fatalf("missing file: got %v, %v", added, err)
	}
	if b, _ := os.ReadFile(missing); !json.Valid(b) {
		t.Errorf("created file is not JSON:\n%s", b)
	}
}
