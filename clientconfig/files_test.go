package clientconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		name, entry, transport, target string
	}{
		{"command-with-args", `{"command": "uvx", "args": ["mcp-server-git", "--repo", "."]}`, "stdio", "uvx mcp-server-git --repo ."},
		{"gemini-http", `{"httpUrl": "https://x.test/mcp"}`, "http", "https://x.test/mcp"},
		{"typed-sse", `{"type": "sse", "url": "https://x.test/events"}`, "sse", "https://x.test/events"},
		{"sse-by-path", `{"url": "https://x.test/sse"}`, "sse", "https://x.test/sse"},
		{"plain-url", `{"url": "https://x.test/mcp"}`, "http", "https://x.test/mcp"},
		{"unreadable", `[1]`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := describe("n", []byte(tc.entry))
			if s.Transport != tc.transport || s.Target != tc.target {
				t.Errorf("got %q %q, want %q %q", s.Transport, s.Target, tc.transport, tc.target)
			}
		})
	}
}

// TestApplyUndoWithVSCodeSettings: Switchboard's settings in VS Code's
// form ("servers") are the ones an import adds to and an undo takes from;
// a name the client does not list is refused before anything changes.
func TestApplyUndoWithVSCodeSettings(t *testing.T) {
	dir := t.TempDir()
	client := filepath.Join(dir, "mcp.json")
	settings := filepath.Join(dir, "settings.json")
	original := `{"servers": {"git": {"command": "uvx"}}}`
	if err := os.WriteFile(client, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"servers": {"mine": {"command": "x"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	vs, _ := domain.FindConnectClient("vscode")
	f := New(Options{Settings: settings, Now: func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }})
	if _, err := f.Apply(t.Context(), vs, client, domain.ClientConfigChange{Import: []string{"nosuch"}}); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown name: got %v, want ErrNotFound", err)
	}
	if _, err := os.Stat(client + BackupSuffix + "20261201T000000.000Z"); err == nil {
		t.Fatalf("a refused change left a backup")
	}
	res, err := f.Apply(t.Context(), vs, client, domain.ClientConfigChange{Import: []string{"git"}})
	if err != nil || strings.Join(res.Added, ",") != "git" || res.Backup == "" {
		t.Fatalf("import: got %+v, %v", res, err)
	}
	st, err := f.Inspect(t.Context(), vs, client)
	if err != nil || len(st.Servers) != 0 || st.Backup != res.Backup {
		t.Errorf("after the import: got %+v, %v", st, err)
	}
	b, _ := os.ReadFile(settings)
	if !strings.Contains(string(b), `"git"`) || strings.Contains(string(b), `"mcpServers"`) {
		t.Errorf("settings after the import:\n%s", b)
	}
	undo, err := f.Undo(t.Context(), client)
	if err != nil || strings.Join(undo.Removed, ",") != "git" {
		t.Fatalf("undo: got %+v, %v", undo, err)
	}
	if b, _ := os.ReadFile(client); string(b) != original {
		t.Errorf("client after the undo:\n%s", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*"+BackupSuffix+"*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	if _, err := f.Undo(t.Context(), client); !errors.Is(err, domain.ErrNothingToUndo) {
		t.Errorf("second undo: got %v, want ErrNothingToUndo", err)
	}
}
