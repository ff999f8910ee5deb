package mcpclient

import (
	"errors"
	"fmt"
	"syscall"
	"testing"
)

func TestUnrepeated(t *testing.T) {
	t.Parallel()
	leaf := fmt.Errorf(`Post "http://h:1/mcp": dial: connect: connect: %w`, syscall.ECONNREFUSED)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"twice-in-a-row-said-once",
			fmt.Errorf("call x: %w", fmt.Errorf("failed to send: %w", fmt.Errorf("failed to send: %w", leaf))),
			`call x: failed to send: Post "http://h:1/mcp": dial: connect: connect: connection refused`},
		{"three-times-said-once",
			fmt.Errorf("a: %w", fmt.Errorf("a: %w", fmt.Errorf("a: %w", leaf))),
			`a: Post "http://h:1/mcp": dial: connect: connect: connection refused`},
		{"apart-kept", fmt.Errorf("a: %w", fmt.Errorf("b: %w", fmt.Errorf("a: %w", leaf))),
			`a: b: a: Post "http://h:1/mcp": dial: connect: connect: connection refused`},
		// Repetition inside one layer's own text is the server's or the
		// library's words, not wrapping: left alone.
		{"leaf-text-untouched", leaf, `Post "http://h:1/mcp": dial: connect: connect: connection refused`},
		{"suffix-layer-stands", fmt.Errorf("%w (again)", fmt.Errorf("a: %w", fmt.Errorf("a: %w", leaf))),
			`a: a: Post "http://h:1/mcp": dial: connect: connect: connection refused (again)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := unrepeated(tt.err)
			if got.Error() != tt.want {
				t.Errorf("got %q, want %q", got.Error(), tt.want)
			}
			if !errors.Is(got, syscall.ECONNREFUSED) {
				t.Errorf("errors.Is(%q, ECONNREFUSED) = false, want true", got)
			}
		})
	}
	if unrepeated(nil) != nil {
		t.Error("unrepeated(nil) != nil")
	}
	if err := fmt.Errorf("a: %w", leaf); unrepeated(err) != err {
		t.Error("an error without repetition was replaced")
	}
}
