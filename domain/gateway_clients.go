package domain

import "time"

// GatewayClient is one AI client connected through the gateway, as the
// Connect page lists it: a legacy (2025) initialize session, live until
// it ends, or a 2026-07-28 client identity (name, version and token
// together) seen recently; that era opens no session.
type GatewayClient struct {
	Legacy    bool
	SessionID string // legacy sessions only
	// Endpoint is the path the client uses: /mcp or /mcp/<server>.
	Endpoint string
	Client   ClientIdentity
	Since    time.Time // initialize, or the first request seen
	LastSeen time.Time
	Calls    int // tools/call requests
}
