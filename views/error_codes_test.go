package views

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
)

// Every error code has a message in every language, and other codes
// (the tool's own errors have none) fall back to the Error text.
func TestErrorCodeMessages(t *testing.T) {
	cat, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	m, ok := ErrorCodeMessage(domain.ErrorCodeInterrupted)
	if !ok {
		t.Fatalf("ErrorCodeMessage(%q): got none, want one", domain.ErrorCodeInterrupted)
	}
	seen := map[string]string{}
	for _, lang := range locales.Supported {
		got := cat.Localizer(lang.String()).T(m.ID, m.Data)
		if got == m.ID || got == "" {
			t.Errorf("%s: got %q, want a translation", lang, got)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("%s: got the same text as %s, %q", lang, other, got)
		}
		seen[got] = lang.String()
	}
	for _, code := range []string{"", "timeout", "INTERRUPTED"} {
		if _, ok := ErrorCodeMessage(code); ok {
			t.Errorf("ErrorCodeMessage(%q): got a message, want none", code)
		}
	}
}
