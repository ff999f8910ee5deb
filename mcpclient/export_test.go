package mcpclient

import (
	"github.com/switchboard-mcp/switchboard/domain"
)

// PIDOf returns the process id of a stdio session's server, so tests can
// kill or stop it.
func PIDOf(s domain.Session) int { return s.(*session).proc.pid }

// DecodeArgs exposes how tool arguments are turned into the sent object.
var DecodeArgs = decodeArgs
