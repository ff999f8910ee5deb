package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// An HTTP server that gives the 2026-07-28 request no answer in time is
// slow, not of the other era: falling back to initialize would turn its
// silence into a configuration error that is never retried.
func TestProbeTimeoutIsNoRefusal(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want bool
	}{
		{"deadline", fmt.Errorf("send: %w", context.DeadlineExceeded), false},
		{"not-json", errors.New("invalid character '<' looking for beginning of value"), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &modernProbe{err: tt.err}
			if got := p.refused(0, false); got != tt.want {
				t.Errorf("refused after %v = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
