package domain_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A server's pattern is checked on the answer with Go's regexp: a string
// that does not match is named; a pattern Go cannot compile or too long
// to check, a value that is not a string, or a property not answered is
// not.
func TestElicitPatternMismatches(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"code":{"type":"string","pattern":"^[A-Z]{3}-[0-9]+$"},
		"zip":{"type":"string","pattern":"^[0-9]{5}$"},
		"lookahead":{"type":"string","pattern":"^(?=x)x$"},
		"long":{"type":"string","pattern":"^` + strings.Repeat("a", 1100) + `$"},
		"count":{"type":"integer","pattern":"^9$"},
		"free":{"type":"string"}
	}}`)
	tests := []struct {
		name    string
		content string
		want    []string
	}{
		{"all-match", `{"code":"ABC-12","zip":"12345"}`, nil},
		{"two-break", `{"code":"abc","zip":"1234","free":"x"}`, []string{"code", "zip"}},
		{"search-not-anchored-by-go", `{"code":"xABC-1"}`, []string{"code"}},
		{"uncompilable-skipped", `{"lookahead":"y"}`, nil},
		{"too-long-skipped", `{"long":"b"}`, nil},
		{"not-a-string-skipped", `{"count":1}`, nil},
		{"unanswered", `{}`, nil},
		{"content-not-an-object", `[1]`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := domain.ElicitPatternMismatches(schema, json.RawMessage(tc.content)); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// A pattern that backtracks for ever in a browser's regex engine is
// checked in time linear in the value here (a backtracking engine would
// not finish this test).
func TestElicitPatternMismatchesHostilePattern(t *testing.T) {
	schema := json.RawMessage(`{"properties":{"v":{"type":"string","pattern":"^(a+)+$"}}}`)
	content, _ := json.Marshal(map[string]string{"v": strings.Repeat("a", 100000) + "!"})
	got := domain.ElicitPatternMismatches(schema, content)
	if !slices.Equal(got, []string{"v"}) {
		t.Errorf("got %v, want [v]", got)
	}
}
