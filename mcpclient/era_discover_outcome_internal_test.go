package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Only a server/discover cut off by its bound counts as unanswered: an
// error the server sent, or another request timing out, does not.
func TestDiscoverOutcome(t *testing.T) {
	t.Parallel()
	discover := transport.JSONRPCRequest{Method: string(mcp.MethodServerDiscover)}
	for _, tt := range []struct {
		name string
		req  transport.JSONRPCRequest
		err  error
		want bool
	}{
		{"answered", discover, nil, false},
		{"refused", discover, errors.New("method not found"), false},
		{"unanswered", discover, fmt.Errorf("send: %w", context.DeadlineExceeded), true},
		{"another request", transport.JSONRPCRequest{Method: string(mcp.MethodInitialize)}, context.DeadlineExceeded, false},
	} {
		var d discoverOutcome
		d.see(tt.req, tt.err)
		if d.timedOut() != tt.want {
			t.Errorf("%s: timedOut() = %v, want %v", tt.name, d.timedOut(), tt.want)
		}
	}
	var none *discoverOutcome
	none.see(discover, context.DeadlineExceeded) // a transport without one must not panic
}

// The probe's bound is discoverTimeout, but at most half the time a
// connect has left, so a server that ignores it still has time for
// initialize.
func TestDiscoverBound(t *testing.T) {
	t.Parallel()
	if got := discoverBound(context.Background()); got != discoverTimeout {
		t.Errorf("without a deadline: %s, want %s", got, discoverTimeout)
	}
	long, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if got := discoverBound(long); got != discoverTimeout {
		t.Errorf("with an hour left: %s, want %s", got, discoverTimeout)
	}
	short, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	if got := discoverBound(short); got > 2*time.Second || got < time.Second {
		t.Errorf("with 4s left: %s, want about 2s", got)
	}
	gone, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if got := discoverBound(gone); got <= 0 {
		t.Errorf("past the deadline: %s, want a positive bound (mcp-go takes 0 for its default)", got)
	}
}
