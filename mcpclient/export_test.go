package mcpclient

import (
	"github.com/switchboard-mcp/switchboard/domain"
)

// PIDOf returns the process id of a stdio session's server, so tests can
// kill or stop it.
func PIDOf(s domain.Session) int { return s.(*session).proc.pid }

// DecodeArgs exposes how tool arguments are turned into the sent object.
var DecodeArgs = decodeArgs

// FitMessages feeds chunks to a meter with framing "whole", "line" or
// "event" and returns how many of their bytes fit under max.
func FitMessages(max int64, framingName string, chunks ...string) int {
	f := map[string]framing{"whole": framingWhole, "line": framingLine, "event": framingEvent}[framingName]
	m := meter{max: max, framing: f}
	n := 0
	for _, c := range chunks {
		k := m.fit([]byte(c))
		n += k
		if k < len(c) {
			break
		}
	}
	return n
}
