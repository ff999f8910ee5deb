package domain

import (
	"context"
	"sync"
	"time"
)

// Grant is a late approval waiting for its client's retry: it covers one
// call with exactly these arguments, by this client token, of this tool,
// until Expires.
type Grant struct {
	Scope    Scope
	Token    string // the client token's name; empty for the owner's token
	Server   string
	Tool     string
	ArgsHash string // ArgumentsHash of the approved arguments
	Expires  time.Time
}

// sameCall reports whether g and o cover the same call, whenever each
// expires.
func (g Grant) sameCall(o Grant) bool {
	g.Expires, o.Expires = time.Time{}, time.Time{}
	return g == o
}

// GrantStore keeps late approvals, so that a client's retry after a
// Switchboard restart still runs without asking again. Only the SHA-256 of
// the arguments is kept, never the arguments.
type GrantStore interface {
	// AddGrant records g; a grant already held for the same call is
	// replaced, so it expires at g.Expires.
	AddGrant(ctx context.Context, g Grant) error
	// TakeGrant uses up the grant for key's call (key.Expires is ignored)
	// and reports whether there was one that had not expired at now. Of
	// two takes at once, only one finds it. Expired grants are dropped.
	TakeGrant(ctx context.Context, key Grant, now time.Time) (bool, error)
}

// MemoryGrants is a GrantStore that forgets its grants when the process
// ends: the default when no store is configured.
type MemoryGrants struct {
	mu     sync.Mutex // guards grants
	grants []Grant
}

var _ GrantStore = (*MemoryGrants)(nil)

// AddGrant records g, replacing a grant for the same call.
func (m *MemoryGrants) AddGrant(_ context.Context, g Grant) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, held := range m.grants {
		if held.sameCall(g) {
			m.grants[i] = g
			return nil
		}
	}
	m.grants = append(m.grants, g)
	return nil
}

// TakeGrant uses up key's grant if it is still valid at now.
func (m *MemoryGrants) TakeGrant(_ context.Context, key Grant, now time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	found := false
	kept := m.grants[:0]
	for _, g := range m.grants {
		switch {
		case !now.Before(g.Expires):
		case !found && g.sameCall(key):
			found = true
		default:
			kept = append(kept, g)
		}
	}
	clear(m.grants[len(kept):])
	m.grants = kept
	return found, nil
}
