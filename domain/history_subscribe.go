package domain

import (
	"sort"
	"sync"
)

// Subscribe returns a subscription told the names of servers whose
// history was written, so a page can redraw their pictures.
func (h *History) Subscribe() *HistorySubscription {
	s := &HistorySubscription{history: h, ready: make(chan struct{}, 1), pending: map[string]struct{}{}}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	return s
}

// HistorySubscription collects, coalesced, the servers whose history
// changed since its last Drain.
type HistorySubscription struct {
	history *History
	ready   chan struct{} // holds a token while pending is non-empty

	mu      sync.Mutex // guards pending
	pending map[string]struct{}
}

func (s *HistorySubscription) offer(servers map[string]struct{}) {
	if len(servers) == 0 {
		return
	}
	s.mu.Lock()
	for name := range servers {
		s.pending[name] = struct{}{}
	}
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Ready is signalled when servers are pending; call Drain after it fires.
func (s *HistorySubscription) Ready() <-chan struct{} { return s.ready }

// Drain returns the pending servers' names, sorted, without waiting.
func (s *HistorySubscription) Drain() []string {
	s.mu.Lock()
	out := make([]string, 0, len(s.pending))
	for name := range s.pending {
		out = append(out, name)
	}
	clear(s.pending)
	s.mu.Unlock()
	sort.Strings(out)
	return out
}

// Close stops delivery; it is safe to call more than once.
func (s *HistorySubscription) Close() {
	s.history.mu.Lock()
	delete(s.history.subs, s)
	s.history.mu.Unlock()
}
