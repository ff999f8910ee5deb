package settingsfile_test

import (
	"encoding/json"
	"testing"

	"github.com/switchboard-mcp/switchboard/settingsfile"
)

func TestSetEntryKeepsTheRestOfTheFile(t *testing.T) {
	entry := json.RawMessage(`{"url":"http://127.0.0.1:1/mcp"}`)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty-file", "", "{\n  \"mcpServers\": {\n    \"sb\": {\n      \"url\": \"http://127.0.0.1:1/mcp\"\n    }\n  }\n}\n"},
		{"no-group", "{\"theme\":  \"dark\"}\n", "{\"theme\":  \"dark\",\n  \"mcpServers\": {\n    \"sb\": {\n      \"url\": \"http://127.0.0.1:1/mcp\"\n    }\n  }}\n"},
		{"empty-group", `{"mcpServers": {}, "x": 1}`, "{\"mcpServers\": {\n    \"sb\": {\n      \"url\": \"http://127.0.0.1:1/mcp\"\n    }\n  }, \"x\": 1}"},
		{"beside-another", `{"mcpServers": {"fs": {"command": "npx"}}}`, "{\"mcpServers\": {\"fs\": {\"command\": \"npx\"},\n    \"sb\": {\n      \"url\": \"http://127.0.0.1:1/mcp\"\n    }}}"},
		{"replaces-own", `{"mcpServers": {"sb": {"url": "old"}, "fs": {}}}`, "{\"mcpServers\": {\"sb\": {\n      \"url\": \"http://127.0.0.1:1/mcp\"\n    }, \"fs\": {}}}"},
		{"nested-same-name-untouched", `{"other": {"mcpServers": {}}, "mcpServers": {"a": {"sb": 1}}}`, "{\"other\": {\"mcpServers\": {}}, \"mcpServers\": {\"a\": {\"sb\": 1},\n    \"sb\": {\n      \"url\": \"http://127.0.0.1:1/mcp\"\n    }}}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := settingsfile.SetEntry([]byte(tc.in), "mcpServers", "sb", entry)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if !json.Valid(got) {
				t.Errorf("result is not valid JSON")
			}
		})
	}
	for _, bad := range []string{`{"mcpServers": [1]}`, `[1]`, `{"a":`} {
		if _, err := settingsfile.SetEntry([]byte(bad), "mcpServers", "sb", entry); err == nil {
			t.Errorf("settingsfile.SetEntry(%s): got nil error", bad)
		}
	}
}
