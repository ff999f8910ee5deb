package domain_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestNotFoundErrorsNameWhatWasMissing: U7. A missing invocation or tool
// says so, never "…: server not found", and is still ErrNotFound to
// errors.Is, so handlers keep answering 404.
func TestNotFoundErrorsNameWhatWasMissing(t *testing.T) {
	for _, tt := range []struct {
		sentinel error
		want     string
	}{
		{domain.ErrInvocationNotFound, `invocation "x": invocation not found`},
		{domain.ErrToolNotFound, `invocation "x": tool not found`},
	} {
		err := fmt.Errorf("invocation %q: %w", "x", tt.sentinel)
		if got := err.Error(); got != tt.want || strings.Contains(got, "server") {
			t.Errorf("text: got %q, want %q", got, tt.want)
		}
		if !errors.Is(err, tt.sentinel) || !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("errors.Is(%q): want both %v and ErrNotFound", err, tt.sentinel)
		}
	}
	if errors.Is(domain.ErrInvocationNotFound, domain.ErrToolNotFound) {
		t.Errorf("a missing invocation is taken for a missing tool")
	}
}
