package domain_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestConnectSnippets(t *testing.T) {
	target := domain.ConnectTarget{URL: "http://127.0.0.1:9000/mcp", Token: "sbc_x", Executable: "/usr/local/bin/switchboard"}
	for _, tc := range []struct {
		id, want string
	}{
		{"claude-desktop", `{"mcpServers":{"sb":{"command":"/usr/local/bin/switchboard","args":["stdio"],"env":{"SWITCHBOARD_CLIENT_TOKEN":"sbc_x"}}}}`},
		{"claude-code", `{"mcpServers":{"sb":{"type":"http","url":"http://127.0.0.1:9000/mcp","headers":{"Authorization":"Bearer sbc_x"}}}}`},
		{"cursor", `{"mcpServers":{"sb":{"url":"http://127.0.0.1:9000/mcp","headers":{"Authorization":"Bearer sbc_x"}}}}`},
		{"vscode", `{"servers":{"sb":{"type":"http","url":"http://127.0.0.1:9000/mcp","headers":{"Authorization":"Bearer sbc_x"}}}}`},
		{"gemini-cli", `{"mcpServers":{"sb":{"httpUrl":"http://127.0.0.1:9000/mcp","headers":{"Authorization":"Bearer sbc_x"},"timeout":600000}}}`},
		{"qwen-code", `{"mcpServers":{"sb":{"httpUrl":"http://127.0.0.1:9000/mcp","headers":{"Authorization":"Bearer sbc_x"},"timeout":600000}}}`},
	} {
		c, ok := domain.FindConnectClient(tc.id)
		if !ok {
			t.Fatalf("FindConnectClient(%q): not found", tc.id)
		}
		var compact = new(json.RawMessage)
		if err := json.Unmarshal([]byte(c.Snippet(target)), compact); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(compact)
		if got := string(b); got != tc.want {
			t.Errorf("%s snippet:\n got %s\nwant %s", tc.id, got, tc.want)
		}
		if len(c.Files) == 0 {
			t.Errorf("%s: no config file", tc.id)
		}
	}
	cc, _ := domain.FindConnectClient("claude-code")
	if got, want := cc.AddCommand(target), "claude mcp add --transport http --scope user --header 'Authorization: Bearer sbc_x' sb http://127.0.0.1:9000/mcp"; got != want {
		t.Errorf("claude code command:\n got %s\nwant %s", got, want)
	}
	if cur, _ := domain.FindConnectClient("cursor"); cur.AddCommand(target) != "" {
		t.Errorf("cursor has no add command of its own")
	}
	if _, ok := domain.FindConnectClient("notepad"); ok {
		t.Errorf("FindConnectClient(notepad): found")
	}
	if len(domain.ConnectClients()) != 6 {
		t.Errorf("got %d clients, want 6", len(domain.ConnectClients()))
	}
}

func TestConnectClientConfigPath(t *testing.T) {
	env := map[string]string{"HOME": "/home/a", "APPDATA": `C:\Users\a\AppData\Roaming`}
	getenv := func(k string) string { return env[k] }
	vs, _ := domain.FindConnectClient("vscode")
	if got, _ := vs.ConfigPath("linux", getenv); got != filepath.FromSlash("/home/a/.config/Code/User/mcp.json") {
		t.Errorf("vscode on linux: got %q", got)
	}
	cd, _ := domain.FindConnectClient("claude-desktop")
	if _, err := cd.ConfigPath("linux", getenv); !errors.Is(err, domain.ErrNoClientConfig) {
		t.Errorf("claude desktop on linux: got %v, want ErrNoClientConfig", err)
	}
	if _, err := vs.ConfigPath("linux", func(string) string { return "" }); !errors.Is(err, domain.ErrNoClientConfig) {
		t.Errorf("no HOME: got %v, want ErrNoClientConfig", err)
	}
}
