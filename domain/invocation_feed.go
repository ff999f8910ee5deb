package domain

import (
	"context"
	"sort"
	"sync"
)

// InvocationFeed hands every change of an invocation to the pages and API
// streams of its scope. Like Hub it never blocks the writer. A slow
// subscriber may miss progress updates, but never a status: each
// invocation queues at most one change per status (pending, running, and
// its end), the newest of each, so a card is always seen running before it
// ends.
type InvocationFeed struct {
	mu   sync.Mutex // guards seq, subs and calls
	seq  uint64
	subs map[*InvocationSubscription]struct{}
	// calls holds the subscriptions to one invocation each, by its id: a
	// change is offered to those of its own call only, so a thousand
	// calls each followed by its own relay cost what one does.
	calls map[string]map[*InvocationSubscription]struct{}
}

// NewInvocationFeed returns a feed with no subscribers.
func NewInvocationFeed() *InvocationFeed {
	return &InvocationFeed{subs: map[*InvocationSubscription]struct{}{},
		calls: map[string]map[*InvocationSubscription]struct{}{}}
}

// publish stamps inv with the next version and offers it to the
// subscribers of its scope.
func (f *InvocationFeed) publish(inv Invocation) Invocation {
	return f.publishAbove(inv, 0)
}

// publishAbove is publish with a version greater than floor too: a row
// written by an earlier process carries a version from that process's
// feed, which this one must not fall behind.
func (f *InvocationFeed) publishAbove(inv Invocation, floor uint64) Invocation {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq = max(f.seq, floor)
	f.seq++
	inv.Version = f.seq
	f.offerLocked(inv)
	return inv
}

// offerLocked hands inv to the subscribers of its scope and of its call;
// f.mu must be held.
func (f *InvocationFeed) offerLocked(inv Invocation) {
	for s := range f.subs {
		if s.scope == inv.Scope {
			s.offer(inv)
		}
	}
	for s := range f.calls[inv.ID] {
		if s.scope == inv.Scope {
			s.offer(inv)
		}
	}
}

// reserve returns the next version without publishing anything, for a
// change that is handed to the store before it is published (with offer).
func (f *InvocationFeed) reserve() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	return f.seq
}

// offer publishes inv with the version reserve gave it.
func (f *InvocationFeed) offer(inv Invocation) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.offerLocked(inv)
}

// Subscribe returns a subscription to the changes of one scope.
func (f *InvocationFeed) Subscribe(scope Scope) *InvocationSubscription {
	s := &InvocationSubscription{feed: f, scope: scope, pending: map[string][]Invocation{}, ready: make(chan struct{}, 1)}
	f.mu.Lock()
	f.subs[s] = struct{}{}
	f.mu.Unlock()
	return s
}

// SubscribeCall returns a subscription to the changes of one invocation
// of scope, from now on: what happened before is in its current state.
func (f *InvocationFeed) SubscribeCall(scope Scope, id string) *InvocationSubscription {
	s := &InvocationSubscription{feed: f, scope: scope, call: id, pending: map[string][]Invocation{}, ready: make(chan struct{}, 1)}
	f.mu.Lock()
	if f.calls[id] == nil {
		f.calls[id] = map[*InvocationSubscription]struct{}{}
	}
	f.calls[id][s] = struct{}{}
	f.mu.Unlock()
	return s
}

// InvocationSubscription receives changes coalesced per invocation. Its
// offer, Ready and Drain repeat the shape of the status hub's
// Subscription on purpose: a status replaces the one pending for its
// server, while an invocation's changes queue in order, so the two keep
// their own pending sets.
type InvocationSubscription struct {
	feed  *InvocationFeed
	scope Scope
	call  string        // the one invocation followed (SubscribeCall); empty for all of the scope
	ready chan struct{} // holds a token while pending is non-empty

	mu      sync.Mutex // guards pending
	pending map[string][]Invocation
}

func (s *InvocationSubscription) offer(inv Invocation) {
	s.mu.Lock()
	q := s.pending[inv.ID]
	if n := len(q); n > 0 && q[n-1].Status == inv.Status {
		if inv.Version > q[n-1].Version {
			q[n-1] = inv // a newer progress of the same status
		}
	} else {
		q = append(q, inv)
	}
	s.pending[inv.ID] = q
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Next waits for changes and returns every pending one, oldest version
// first, or ctx's error.
func (s *InvocationSubscription) Next(ctx context.Context) ([]Invocation, error) {
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

// Ready is signalled when changes are pending, for callers that wait on
// several sources at once; call Drain after it fires.
func (s *InvocationSubscription) Ready() <-chan struct{} { return s.ready }

// Drain returns every pending change, oldest version first, without
// waiting.
func (s *InvocationSubscription) Drain() []Invocation {
	s.mu.Lock()
	out := make([]Invocation, 0, len(s.pending))
	for _, q := range s.pending {
		out = append(out, q...)
	}
	clear(s.pending)
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out
}

// Close stops delivery; it is safe to call more than once.
func (s *InvocationSubscription) Close() {
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	if s.call == "" {
		delete(s.feed.subs, s)
		return
	}
	if subs := s.feed.calls[s.call]; subs != nil {
		delete(subs, s)
		if len(subs) == 0 {
			delete(s.feed.calls, s.call)
		}
	}
}
