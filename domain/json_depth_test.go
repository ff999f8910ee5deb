package domain_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func nested(depth int) string {
	return strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
}

func TestCheckJSONDepth(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		max  int
		deep bool
	}{
		{"flat-object", `{"a":1}`, 1, false},
		{"scalar", `42`, 0, false},
		{"at-the-limit", nested(512), 512, false},
		{"one-past-the-limit", nested(513), 512, true},
		{"arrays-count-too", strings.Repeat("[", 3) + strings.Repeat("]", 3), 2, true},
		{"siblings-do-not-add-up", `{"a":[1],"b":[2],"c":{"d":3}}`, 2, false},
		{"brackets-in-strings-do-not-count", `{"a":"[[[[{{{{"}`, 1, false},
		{"escaped-quote-keeps-the-string-open", `{"a":"\"[[[["}`, 1, false},
		{"escaped-backslash-closes-the-string", `{"a":"\\","b":[[1]]}`, 2, true},
		{"very-deep", strings.Repeat("[", 9000) + strings.Repeat("]", 9000), domain.MaxArgumentsDepth, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := domain.CheckJSONDepth([]byte(tt.doc), tt.max)
			if got := err != nil; got != tt.deep {
				t.Fatalf("too deep: got %v (%v), want %v", got, err, tt.deep)
			}
			if err == nil {
				return
			}
			var de *domain.DepthError
			if !errors.As(err, &de) || de.Max != tt.max {
				t.Errorf("error: got %#v, want a *DepthError with Max %d", err, tt.max)
			}
			if !errors.Is(err, domain.ErrBadArguments) {
				t.Errorf("error %v is not ErrBadArguments", err)
			}
		})
	}
}
