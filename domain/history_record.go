package domain

import "context"

// Record starts recording hub's snapshots, beginning with the current
// ones; call it once, before servers attach, so no first state is missed.
func (h *History) Record(hub *Hub) {
	stop := hub.Observe(h.observe)
	h.mu.Lock()
	h.stop = stop
	h.mu.Unlock()
	go h.write()
}

// observe runs inside the hub's Publish: it compares and queues, nothing
// slower.
func (h *History) observe(st Status) {
	now := h.opts.Clock.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	name := st.ServerName
	prev, seen := h.last[name]
	next := seenStatus{state: st.State, phase: st.Phase, err: st.Error, probedAt: prev.probedAt}
	queued := false
	if !seen || prev.state != next.state || prev.phase != next.phase || prev.err != next.err {
		queued = h.enqueue(StateChange{Server: name, At: now, State: st.State, Phase: st.Phase, Error: clip(st.Error, MaxHistoryError)}, nil)
	}
	if st.HasLatency && st.ProbedAt.After(prev.probedAt) {
		next.probedAt = st.ProbedAt
		p := ProbeSample{Server: name, At: st.ProbedAt, Latency: st.Latency}
		r := append(h.recent[name], p)
		if len(r) > RecentProbeCount {
			r = append([]ProbeSample(nil), r[len(r)-RecentProbeCount:]...)
		}
		h.recent[name] = r
		queued = h.enqueue(StateChange{}, &p) || queued
	}
	if st.Phase == PhaseDisposed {
		// A server added again under this name starts afresh, its
		// tooltip too.
		delete(h.last, name)
		delete(h.recent, name)
	} else {
		h.last[name] = next
	}
	if queued {
		select {
		case h.wake <- struct{}{}:
		default:
		}
	}
}

// enqueue queues a sample when p is set, else c; it reports whether it
// had room. h.mu must be held.
func (h *History) enqueue(c StateChange, p *ProbeSample) bool {
	if len(h.changes)+len(h.samples) >= h.opts.QueueLimit {
		h.dropped++
		return false
	}
	if p != nil {
		h.samples = append(h.samples, *p)
	} else {
		h.changes = append(h.changes, c)
	}
	h.queued++
	return true
}

// clip cuts s to at most n bytes without splitting a character.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// write is the writer goroutine: it stores the queue in batches until
// Close, then stores what is left and ends.
func (h *History) write() {
	defer close(h.done)
	var logged uint64
	for {
		<-h.wake
		h.mu.Lock()
		changes, samples, closed, dropped := h.changes, h.samples, h.closed, h.dropped
		h.changes, h.samples = nil, nil
		h.mu.Unlock()
		if n := len(changes) + len(samples); n > 0 {
			// A write that fails is logged and given up: history is a
			// picture of the past, not a record anyone relies on.
			if err := h.opts.Store.AppendHistory(context.Background(), h.opts.Scope, changes, samples); err != nil {
				h.opts.Log.Warn("record server history", "error", err, "entries", n)
			}
			h.finish(uint64(n), changes, samples)
		}
		if dropped > logged {
			h.opts.Log.Warn("server history queue full: entries dropped", "dropped", dropped)
			logged = dropped
		}
		if closed {
			return
		}
	}
}

// finish marks n entries handled and tells subscribers whose history
// changed.
func (h *History) finish(n uint64, changes []StateChange, samples []ProbeSample) {
	servers := map[string]struct{}{}
	for _, c := range changes {
		servers[c.Server] = struct{}{}
	}
	for _, p := range samples {
		servers[p.Server] = struct{}{}
	}
	h.mu.Lock()
	h.written += n
	close(h.progress)
	h.progress = make(chan struct{})
	subs := make([]*HistorySubscription, 0, len(h.subs))
	for s := range h.subs {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	for _, s := range subs {
		s.offer(servers)
	}
}

// flush waits until everything queued before it has been written, so
// reads see every snapshot published before them.
func (h *History) flush(ctx context.Context) error {
	h.mu.Lock()
	target := h.queued
	for h.written < target {
		ch := h.progress
		h.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		h.mu.Lock()
	}
	h.mu.Unlock()
	return nil
}
