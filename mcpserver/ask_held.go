package mcpserver

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Bounds of the ended calls an endpoint remembers for 2026-07-28 clients
// whose retry comes after the call ended: such a retry gets the call's
// final result rather than an error.
const (
	endedGrace = 5 * time.Minute
	maxEnded   = 100
)

// heldCalls are an endpoint's calls that put a request to a 2026-07-28
// client, by held ID: running ones, and ended ones for endedGrace.
type heldCalls struct {
	clock domain.Clock

	mu    sync.Mutex // guards live, ended and seq
	live  map[string]*heldCall
	ended map[string]endedCall
	seq   uint64 // counts ended calls, so the oldest goes first
}

type endedCall struct {
	h     *heldCall
	until time.Time
	seq   uint64
}

func newHeldCalls(clock domain.Clock) *heldCalls {
	return &heldCalls{clock: clock, live: map[string]*heldCall{}, ended: map[string]endedCall{}}
}

// keep registers h, which a retry may now resume.
func (r *heldCalls) keep(h *heldCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-h.done:
		r.endLocked(h)
	default:
		r.live[h.id] = h
	}
}

// end moves h, once its call ended, among the ended calls.
func (r *heldCalls) end(h *heldCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.live[h.id]; ok {
		delete(r.live, h.id)
		r.endLocked(h)
	}
}

func (r *heldCalls) endLocked(h *heldCall) {
	now := r.clock.Now()
	r.pruneLocked(now)
	for len(r.ended) >= maxEnded {
		var oldest string
		var seq uint64
		for id, e := range r.ended {
			if oldest == "" || e.seq < seq {
				oldest, seq = id, e.seq
			}
		}
		delete(r.ended, oldest)
	}
	r.seq++
	r.ended[h.id] = endedCall{h: h, until: now.Add(endedGrace), seq: r.seq}
	r.dropWholesLocked()
}

// maxEndedWholes bounds the whole (uncut) results ended calls keep for a
// late retry: each may be tens of megabytes. Older ones answer with the
// card's cut copy and say so.
const maxEndedWholes = 4

func (r *heldCalls) dropWholesLocked() {
	var with []endedCall
	for _, e := range r.ended {
		if e.h.whole.Load() != nil {
			with = append(with, e)
		}
	}
	if len(with) <= maxEndedWholes {
		return
	}
	slices.SortFunc(with, func(a, b endedCall) int { return cmp.Compare(a.seq, b.seq) })
	for _, e := range with[:len(with)-maxEndedWholes] {
		e.h.whole.Store(nil)
	}
}

func (r *heldCalls) pruneLocked(now time.Time) {
	for id, e := range r.ended {
		if !now.Before(e.until) {
			delete(r.ended, id)
		}
	}
}

// revoke ends the running calls token's client holds between rounds: a
// revoked client can never resume them, so nothing may go on running on
// its behalf until the call's own deadline.
func (r *heldCalls) revoke(token string) {
	r.mu.Lock()
	var ending []*heldCall
	for _, h := range r.live {
		if h.token == token && h.stopWait != nil {
			ending = append(ending, h)
		}
	}
	r.mu.Unlock()
	for _, h := range ending {
		h.stopWait()
	}
}

// find returns the running or recently ended call id names.
func (r *heldCalls) find(id string) (*heldCall, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if h, ok := r.live[id]; ok {
		return h, true
	}
	r.pruneLocked(r.clock.Now())
	e, ok := r.ended[id]
	return e.h, ok
}

// size is how many running and ended calls r holds, for tests.
func (r *heldCalls) size() (live, ended int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.live), len(r.ended)
}
