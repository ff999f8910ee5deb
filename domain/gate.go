package domain

import (
	"fmt"
)

// BlockedReason says why a configured server is not connected on purpose.
// A blocked server is never shown as a bare "disconnected": the reason
// and the way out travel with it.
type BlockedReason string

const (
	BlockedNone       BlockedReason = ""
	BlockedExcluded   BlockedReason = "excluded"         // listed in mcp.excluded
	BlockedNotAllowed BlockedReason = "not_allowed"      // missing from mcp.allowed or the start-up allow-list
	BlockedPending    BlockedReason = "pending_approval" // a project server nobody approved yet
	BlockedRejected   BlockedReason = "rejected"         // a project server a person rejected
)

// BlockedError says which server is blocked and why.
type BlockedError struct {
	Server string
	Reason BlockedReason
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("server %q is blocked: %s", e.Server, e.Reason)
}
func (e *BlockedError) Unwrap() error { return ErrBlocked }

// Gate decides which servers may connect. Excluded always wins. Allowed,
// when set, is the only list that may connect ("allowed": [] denies all;
// an absent key allows all). UpperBound is the start-up flag: later edits
// of Allowed may narrow it, never widen it.
type Gate struct {
	Allowed       []string
	AllowedSet    bool
	Excluded      []string
	UpperBound    []string
	UpperBoundSet bool
}

// Decide returns why name may not connect, or BlockedNone.
func (g Gate) Decide(name string) BlockedReason {
	switch {
	case contains(g.Excluded, name):
		return BlockedExcluded
	case g.UpperBoundSet && !contains(g.UpperBound, name):
		return BlockedNotAllowed
	case g.AllowedSet && !contains(g.Allowed, name):
		return BlockedNotAllowed
	}
	return BlockedNone
}

// Apply marks each config the gate blocks.
func (g Gate) Apply(cfgs []ServerConfig) []ServerConfig {
	out := make([]ServerConfig, len(cfgs))
	for i, c := range cfgs {
		if c.Blocked == BlockedNone {
			c.Blocked = g.Decide(c.Name)
		}
		out[i] = c
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
