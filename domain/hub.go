package domain

import (
	"context"
	"sort"
	"sync"
)

// Hub is the single place where the current status of every server lives:
// supervisors publish, the API and the dashboard read and
// subscribe. Publishing never blocks, and a slow subscriber skips
// intermediate snapshots but always ends on the newest one of each server.
type Hub struct {
	mu      sync.Mutex // guards every field below
	seq     uint64
	current map[string]Status
	subs    map[*Subscription]struct{}
	// observers see every snapshot, in order; see Observe.
	observers map[*func(Status)]struct{}
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{current: map[string]Status{}, subs: map[*Subscription]struct{}{}, observers: map[*func(Status)]struct{}{}}
}

// Publish stores s as the newest snapshot of its server, stamps its version
// and hands it to every subscriber. A disposed snapshot removes the server
// from List after it has been delivered.
func (h *Hub) Publish(s Status) Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	s.Version = h.seq
	if s.Phase == PhaseDisposed {
		delete(h.current, s.ServerName)
	} else {
		h.current[s.ServerName] = s
	}
	for sub := range h.subs {
		sub.offer(s)
	}
	for f := range h.observers {
		(*f)(s)
	}
	return s
}

// Observe calls f with every server's current snapshot and then with
// every snapshot published, in order, until stop is called. Unlike a
// Subscription it skips nothing, for consumers that must see every
// transition, such as History. f runs while the hub is locked, so it
// must return quickly and must not call the hub.
func (h *Hub) Observe(f func(Status)) (stop func()) {
	key := &f
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.listLocked() {
		f(s)
	}
	h.observers[key] = struct{}{}
	return func() {
		h.mu.Lock()
		delete(h.observers, key)
		h.mu.Unlock()
	}
}

// List returns the newest snapshot of every server, sorted by name.
func (h *Hub) List() []Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.listLocked()
}

func (h *Hub) listLocked() []Status {
	out := make([]Status, 0, len(h.current))
	for _, s := range h.current {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ServerName < out[j].ServerName })
	return out
}

// Get returns the newest snapshot of one server.
func (h *Hub) Get(name string) (Status, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.current[name]
	return s, ok
}

// Subscribe returns a subscription whose first Next yields the full current
// list, so a consumer that reconnects heals from any events it missed.
func (h *Hub) Subscribe() *Subscription {
	sub := &Subscription{hub: h, pending: map[string]Status{}, ready: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.listLocked() {
		sub.offer(s)
	}
	h.subs[sub] = struct{}{}
	return sub
}

// Subscription receives snapshots coalesced per server: at most one
// pending snapshot per server, always the newest.
type Subscription struct {
	hub   *Hub
	ready chan struct{} // holds a token while pending is non-empty

	mu      sync.Mutex // guards pending
	pending map[string]Status
}

func (s *Subscription) offer(st Status) {
	s.mu.Lock()
	s.pending[st.ServerName] = st
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Next waits for snapshots and returns every pending one, oldest version
// first, or ctx's error.
func (s *Subscription) Next(ctx context.Context) ([]Status, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.ready:
		}
		if out := s.Drain(); len(out) > 0 {
			return out, nil
		}
	}
}

// Ready is signalled when snapshots are pending, so a caller can wait on
// the hub and on other sources in one select; call Drain after it fires.
// A subscription to a hub that knows any server is ready at once, with
// the full list.
func (s *Subscription) Ready() <-chan struct{} { return s.ready }

// Drain returns every pending snapshot, oldest version first, without
// waiting; it may return none, after a signal whose snapshots an earlier
// Drain already took.
func (s *Subscription) Drain() []Status {
	s.mu.Lock()
	out := make([]Status, 0, len(s.pending))
	for _, st := range s.pending {
		out = append(out, st)
	}
	clear(s.pending)
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out
}

// Close stops delivery; it is safe to call more than once.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	delete(s.hub.subs, s)
	s.hub.mu.Unlock()
}
