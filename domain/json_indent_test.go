package domain_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestIndentJSON(t *testing.T) {
	tests := []struct {
		name, raw, prefix, want string
	}{
		{"object", `{"a":[1,2]}`, "", "{\n  \"a\": [\n    1,\n    2\n  ]\n}"},
		{"prefix-after-first-line", `{"a":1}`, "  ", "{\n    \"a\": 1\n  }"},
		{"scalar", `3`, "", "3"},
		{"not-json-as-it-was", `{"a":`, "", `{"a":`},
		{"empty-as-it-was", ``, "", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(domain.IndentJSON([]byte(tt.raw), tt.prefix)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
