package mcpclient

import (
	"errors"
	"fmt"

	"github.com/switchboard-mcp/switchboard/domain"
)

// The package's sentinel errors, all declared here so that one look shows
// every failure a caller may test with errors.Is. A connection's own
// failures reach the core as *domain.ConnError instead, categorized.
var (
	// ErrArgsNotObject marks tool arguments that are not a JSON object,
	// which tools/call cannot carry. It is the caller's mistake, not the
	// connection's, so it is not a *domain.ConnError and never ends a
	// session; it matches domain.ErrBadArguments.
	ErrArgsNotObject = fmt.Errorf("tool arguments: %w", domain.ErrBadArguments)
	// ErrMessageTooLarge matches every error about a message from a
	// server that passed Options.MaxMessageBytes.
	ErrMessageTooLarge = errors.New("message from the server too large")
	// ErrSessionClosed is the cause Err reports once Close has been called.
	ErrSessionClosed = errors.New("session closed")
)
