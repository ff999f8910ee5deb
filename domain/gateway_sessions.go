package domain

import (
	"context"
	"encoding/json"
	"time"
)

// GatewaySession is what the gateway remembers of a legacy (2025)
// initialize session, so that the session keeps its client's identity
// across a Switchboard restart: clients such as Claude Code carry on with
// their session ID and never initialize again.
type GatewaySession struct {
	ID    string
	Scope Scope
	// Endpoint is the path the session was opened on: /mcp or
	// /mcp/<server>.
	Endpoint string
	// Client is the clientInfo the client sent in initialize, and the name
	// of the token it was let in with.
	Client          ClientIdentity
	ProtocolVersion string // negotiated in initialize
	// Capabilities are the client's capabilities from initialize, as
	// JSON, so a resumed session can still be asked to elicit, sample or
	// list its roots.
	Capabilities json.RawMessage
	CreatedAt    time.Time
	LastSeen     time.Time
}

// GatewaySessionStore keeps legacy sessions across restarts. The gateway
// bounds it: it prunes idle sessions and caps how many are kept.
type GatewaySessionStore interface {
	// SaveGatewaySession records s, replacing a session with its ID.
	SaveGatewaySession(ctx context.Context, s GatewaySession) error
	// GatewaySession returns scope's session id, or an error wrapping
	// ErrGatewaySessionNotFound.
	GatewaySession(ctx context.Context, scope Scope, id string) (GatewaySession, error)
	// TouchGatewaySession records the session's latest request.
	TouchGatewaySession(ctx context.Context, scope Scope, id string, at time.Time) error
	// DeleteGatewaySessions forgets every session of scope opened with the
	// token called token, when that token is revoked.
	DeleteGatewaySessions(ctx context.Context, scope Scope, token string) error
	// PruneGatewaySessions forgets the sessions last seen before
	// idleBefore and, of the rest, all but the keep most recently seen.
	PruneGatewaySessions(ctx context.Context, idleBefore time.Time, keep int) error
}
