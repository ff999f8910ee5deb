package settingsfile_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// load writes content to a fresh file and loads it, failing on an error.
func load(t *testing.T, content string, getenv func(string) string) domain.Settings {
	t.Helper()
	path := writeSettings(t, t.TempDir(), content, 0o600)
	set, err := settingsfile.Load(path, getenv)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(set.Problems) > 0 {
		t.Fatalf("Problems: got %v, want none", set.Problems)
	}
	return set
}

func TestLoadServerForms(t *testing.T) {
	tests := []struct {
		name    string
		content string
		env     map[string]string
		want    []domain.ServerConfig // Source is filled in by the test
	}{
		{
			name: "mcpServers-form",
			content: `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": {"GITHUB_TOKEN": "${GH_TOKEN}"}
    },
    "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${API_KEY}"}}
  }
}
`,
			env: map[string]string{"GH_TOKEN": "ghp_secret", "API_KEY": "k3y"},
			want: []domain.ServerConfig{
				{Name: "github", Transport: domain.TransportStdio, Command: "npx",
					Args: []string{"-y", "@modelcontextprotocol/server-github"}, Env: map[string]string{"GITHUB_TOKEN": "ghp_secret"},
					AutoReconnect: true, KeepAlive: 30 * time.Second, ConnectTimeout: 30 * time.Second, StartTimeout: 2 * time.Minute, CallTimeout: time.Minute},
				{Name: "remote", Transport: domain.TransportHTTP, URL: "https://mcp.example.com/mcp",
					Headers:       map[string]string{"Authorization": "Bearer k3y"},
					AutoReconnect: true, KeepAlive: 30 * time.Second, ConnectTimeout: 30 * time.Second, StartTimeout: 2 * time.Minute, CallTimeout: time.Minute},
			},
		},
		{
			name: "vscode-servers-form",
			content: `{
  "inputs": [{"type": "promptString", "id": "port"}],
  "servers": {
    "fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"], "cwd": "${WORKSPACE}/tools"},
    "events": {"type": "sse", "url": "http://localhost:${PORT}/events"}
  }
}
`,
			env: map[string]string{"PORT": "8931", "WORKSPACE": "/src/app"},
			want: []domain.ServerConfig{
				{Name: "events", Transport: domain.TransportSSE, URL: "http://localhost:8931/events",
					AutoReconnect: true, KeepAlive: 30 * time.Second, ConnectTimeout: 30 * time.Second, StartTimeout: 2 * time.Minute, CallTimeout: time.Minute},
				{Name: "fetch", Transport: domain.TransportStdio, Command: "uvx", Args: []string{"mcp-server-fetch"}, Cwd: "/src/app/tools",
					AutoReconnect: true, KeepAlive: 30 * time.Second, ConnectTimeout: 30 * time.Second, StartTimeout: 2 * time.Minute, CallTimeout: time.Minute},
			},
		},
		{
			name:    "unset-variable-expands-to-empty",
			content: `{"mcpServers": {"s": {"command": "${BIN_DIR}/server", "args": ["--token=${MISSING}"]}}}`,
			env:     map[string]string{"BIN_DIR": "/opt/bin"},
			want: []domain.ServerConfig{
				{Name: "s", Transport: domain.TransportStdio, Command: "/opt/bin/server", Args: []string{"--token="},
					AutoReconnect: true, KeepAlive: 30 * time.Second, ConnectTimeout: 30 * time.Second, StartTimeout: 2 * time.Minute, CallTimeout: time.Minute},
			},
		},
		{
			name:    "byte-order-mark",
			content: "\uFEFF" + `{"mcpServers": {"s": {"command": "s"}}}`,
			want: []domain.ServerConfig{
				{Name: "s", Transport: domain.TransportStdio, Command: "s",
					AutoReconnect: true, KeepAlive: 30 * time.Second, ConnectTimeout: 30 * time.Second, StartTimeout: 2 * time.Minute, CallTimeout: time.Minute},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeSettings(t, t.TempDir(), tt.content, 0o600)
			set, err := settingsfile.Load(path, env(tt.env))
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(set.Problems) > 0 {
				t.Fatalf("Problems: got %v, want none", set.Problems)
			}
			if set.Path != path {
				t.Errorf("Path: got %q, want %q", set.Path, path)
			}
			for i := range tt.want {
				tt.want[i].Source = path
				if i < len(set.Servers) {
					// The text as written (Raw) is checked by the approval tests.
					tt.want[i].Raw = set.Servers[i].Raw
				}
			}
			if !reflect.DeepEqual(set.Servers, tt.want) {
				t.Errorf("Servers:\n got %+v\nwant %+v", set.Servers, tt.want)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	_, err := settingsfile.Load(path, noEnv)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v, want an error wrapping fs.ErrNotExist", err)
	}
}

func TestLoadMalformedFilePointsAtTheError(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		wantLine int
		wantCol  int
		wantMsg  string
	}{
		{"missing-value", "{\n  \"mcpServers\": {\n    \"a\": }\n}\n", 3, 10, "invalid character '}'"},
		{"trailing-comma", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},\n  }\n}\n", 4, 3, "invalid character '}'"},
		{"columns-count-characters", "{\"mcpServers\": {\"café\": {\"command\": 'x'}}}", 1, 37, "invalid character '\\''"},
		{"garbage-after-object", "{}\n}", 2, 1, "after top-level value"},
		{"cut-short", "{\n  \"mcpServers\": {\n", 3, 1, "unexpected end"},
		{"not-an-object", "[1, 2]", 1, 1, "must hold a JSON object"},
		{"empty", "  \n", 1, 1, "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeSettings(t, t.TempDir(), tt.content, 0o600)
			_, err := settingsfile.Load(path, noEnv)
			var se *domain.SettingsError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *domain.SettingsError", err)
			}
			if se.File != path || !strings.Contains(se.Message, tt.wantMsg) {
				t.Errorf("got file %q message %q, want file %q message containing %q", se.File, se.Message, path, tt.wantMsg)
			}
			if se.Line != tt.wantLine || se.Column != tt.wantCol {
				t.Errorf("position: got %d:%d, want %d:%d", se.Line, se.Column, tt.wantLine, tt.wantCol)
			}
		})
	}
}

// A bad entry sits on line 4 of this file, between two good ones; its
// indentation is four spaces, so its name starts in column 5.
const badEntryFile = `{
  "mcpServers": {
    "good": {"command": "npx"},
    %s
    "also-good": {"url": "https://x.example/mcp"}
  }
}
`

func TestLoadReportsBadEntryBesideGoodOnes(t *testing.T) {
	tests := []struct {
		name       string
		entry      string
		wantServer string
		wantCol    int
		wantMsg    string
	}{
		{"wrong-type", `"typo": {"command": 5},`, "typo", 25, `"command" has the wrong type`},
		{"wrong-type-in-list", `"args": {"command": "npx", "args": ["-y", 7]},`, "args", 47, `"args" has the wrong type`},
		{"neither-command-nor-url", `"empty": {},`, "empty", 14, `needs "command"`},
		{"unknown-type", `"ws": {"type": "websocket", "url": "ws://x"},`, "ws", 11, `unknown "type" "websocket"`},
		{"url-not-http", `"ftp": {"url": "ftp://x.example/mcp"},`, "ftp", 12, `"url" must be an http:// or https:// address`},
		{"negative-keepalive", `"neg": {"command": "npx", "keepAliveSeconds": -1},`, "neg", 51, `"keepAliveSeconds" must be 0 (off) or from 5 to 3600 seconds, got -1`},
		{"huge-keepalive", `"huge": {"command": "npx", "keepAliveSeconds": 1e12},`, "huge", 52, `"keepAliveSeconds" must be 0 (off) or from 5 to 3600 seconds, got 1e+12`},
		{"zero-connect-timeout", `"zero": {"command": "npx", "connectTimeoutSeconds": 0},`, "zero", 57, `"connectTimeoutSeconds" must be from 1 to 600 seconds, got 0`},
		{"tiny-call-timeout", `"tiny": {"command": "npx", "callTimeoutSeconds": 1e-300},`, "tiny", 54, `"callTimeoutSeconds" must be from 1 to 86400 seconds, got 1e-300`},
		{"defined-twice", `"good": {"command": "other"},`, "good", 5, "defined more than once"},
		{"entry-not-object", `"str": "npx -y foo",`, "str", 12, "must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeSettings(t, t.TempDir(), strings.Replace(badEntryFile, "%s", tt.entry, 1), 0o600)
			set, err := settingsfile.Load(path, noEnv)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			var names []string
			for _, s := range set.Servers {
				names = append(names, s.Name)
			}
			if want := []string{"also-good", "good"}; !slices.Equal(names, want) {
				t.Errorf("Servers: got %v, want %v", names, want)
			}
			if len(set.Problems) != 1 {
				t.Fatalf("Problems: got %v, want exactly one", set.Problems)
			}
			p := set.Problems[0]
			if p.File != path || p.Server != tt.wantServer {
				t.Errorf("got file %q server %q, want file %q server %q", p.File, p.Server, path, tt.wantServer)
			}
			if p.Line != 4 || p.Column != tt.wantCol || !strings.Contains(p.Message, tt.wantMsg) {
				t.Errorf("got %d:%d %q, want 4:%d and a message containing %q", p.Line, p.Column, p.Message, tt.wantCol, tt.wantMsg)
			}
		})
	}
}

func TestLoadGroupThatIsNotAnObject(t *testing.T) {
	content := `{"mcpServers": {"a": {"command": "x"}}, "servers": "oops"}`
	path := writeSettings(t, t.TempDir(), content, 0o600)
	set, err := settingsfile.Load(path, noEnv)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(set.Servers) != 1 || set.Servers[0].Name != "a" {
		t.Errorf("Servers: got %v, want only a", set.Servers)
	}
	if len(set.Problems) != 1 {
		t.Fatalf("Problems: got %v, want one", set.Problems)
	}
	if p := set.Problems[0]; p.Line != 1 || p.Column != 52 || !strings.Contains(p.Message, `"servers" must be an object`) {
		t.Errorf("got %v, want 1:52 saying \"servers\" must be an object", p)
	}
}
