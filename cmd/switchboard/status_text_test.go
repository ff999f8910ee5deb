package main

import (
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

func TestPrintable(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "everything", "everything"},
		{"unicode-kept", "ünïcödé-名前-🙂", "ünïcödé-名前-🙂"},
		{"escape-sequences", "esc\x1b[2J\x1b[31mFAKE\x1b[0m\x1b]0;pwned-title\x07",
			`esc\x1b[2J\x1b[31mFAKE\x1b[0m\x1b]0;pwned-title\x07`},
		{"newline-and-tab", "a\nb\tc\r", `a\x0ab\x09c\x0d`},
		{"nul-and-del", "a\x00b\x7f", `a\x00b\x7f`},
		{"c1-csi", "a\u009b31m", `a\x9b31m`},
		{"bidi-override", "ünïcödé-名前-🙂\u202egnp.exe", `ünïcödé-名前-🙂U+202Egnp.exe`},
		{"bidi-embeddings-and-isolates", "\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069",
			"U+202AU+202BU+202CU+202DU+2066U+2067U+2068U+2069"},
		{"invalid-utf8-byte", "a\x9bb\xffc", `a\x9bb\xffc`},
		{"zero-width-joiner-kept", "a\u200db", "a\u200db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := printable(tt.in); got != tt.want {
				t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// No byte a terminal acts on reaches the status output, whichever field
// it arrives in, and the columns stay three.
func TestStatusLineEscapesEveryField(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	hostile := "x\x1b]0;t\x07\n● forged\tconnected\u202e"
	str := func(s string) *string { return &s }
	lines := []string{
		statusLine(english, handlers.StatusDTO{ServerName: hostile, State: "connected", ToolCount: 1}, now),
		statusLine(english, handlers.StatusDTO{ServerName: "e", State: "error", ErrorCategory: str(hostile)}, now),
		statusLine(english, handlers.StatusDTO{ServerName: "s", State: hostile}, now),
	}
	for _, line := range lines {
		for _, r := range line {
			if r < 0x20 && r != '\t' || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e {
				t.Errorf("line %q holds %U", line, r)
			}
		}
		if n := strings.Count(line, "\t"); n > 2 {
			t.Errorf("line %q has %d tabs, want at most the 2 between columns", line, n)
		}
	}
	if want := `● x\x1b]0;t\x07\x0a● forged\x09connectedU+202E` + "\tconnected\t1 tool"; lines[0] != want {
		t.Errorf("got %q, want %q", lines[0], want)
	}
}
