package mcpclient

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// discoverOutcome notes whether a stdio server's server/discover probe
// ran out of its bound unanswered. A connect that then fell back to the
// handshake does not remember the 2025 era: the server may speak
// 2026-07-28 and merely have started slowly, so the next connect probes
// again. A 2025 server that ignores the method pays the probe on every
// connect, which is its bound at most.
type discoverOutcome struct {
	unanswered atomic.Bool
}

// see notes the outcome of req, sent and answered with err.
func (d *discoverOutcome) see(req transport.JSONRPCRequest, err error) {
	if d != nil && req.Method == string(mcp.MethodServerDiscover) && errors.Is(err, context.DeadlineExceeded) {
		d.unanswered.Store(true)
	}
}

// timedOut reports whether server/discover went unanswered.
func (d *discoverOutcome) timedOut() bool { return d.unanswered.Load() }
