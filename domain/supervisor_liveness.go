package domain

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// probeResult is what a keep-alive probe reports back to the loop.
type probeResult struct {
	gen     int
	latency time.Duration
	err     error
}

// listResult is what a re-list after a list-changed notification reports
// back to the loop.
type listResult struct {
	gen   int
	kinds []ListKind
	caps  Capabilities
	err   error
}

// armProbe schedules the next keep-alive probe of a connected session.
func (s *supervisor) armProbe() {
	ka := s.config().KeepAlive
	if ka <= 0 || s.session == nil {
		return
	}
	s.probe = s.opts.Clock.NewTimer(ka)
}

func (s *supervisor) startProbe() {
	if s.session == nil || s.probing {
		return
	}
	s.probing = true
	// A probe may not outlast the interval: a server that cannot answer
	// within keepAliveSeconds is not alive enough to keep.
	timeout := min(s.opts.ProbeTimeout, s.config().KeepAlive)
	sess, gen, clock := s.session, s.gen, s.opts.Clock
	s.work.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		start := clock.Now()
		err := sess.Probe(ctx)
		if err != nil && errors.Is(err, context.DeadlineExceeded) {
			err = &ConnError{Category: CategoryTimeout, Err: fmt.Errorf("keep-alive probe got no answer within %s", timeout)}
		}
		r := probeResult{gen: gen, latency: clock.Now().Sub(start), err: err}
		select {
		case s.probes <- r:
		case <-s.quit:
		}
	})
}

func (s *supervisor) onProbe(r probeResult) {
	if r.gen != s.gen {
		return
	}
	s.probing = false
	if r.err != nil {
		s.fail(fmt.Errorf("keep-alive: %w", r.err))
		return
	}
	s.st.Latency = r.latency
	s.st.HasLatency = true
	s.st.ProbedAt = s.opts.Clock.Now()
	s.publish()
	s.armProbe()
}

// onChange notes a list_changed and waits a moment for more: servers often
// announce several changes at once right after connecting.
func (s *supervisor) onChange(k ListKind) {
	s.dirty[k] = true
	if k == ListResources {
		s.dirty[ListResourceTemplates] = true
	}
	if s.debounce == nil {
		s.debounce = s.opts.Clock.NewTimer(s.opts.ListDebounce)
	}
}

func (s *supervisor) startRelist() {
	if s.session == nil || len(s.dirty) == 0 {
		return
	}
	kinds := make([]ListKind, 0, len(s.dirty))
	for _, k := range []ListKind{ListTools, ListResources, ListResourceTemplates, ListPrompts} {
		if s.dirty[k] {
			kinds = append(kinds, k)
		}
	}
	clear(s.dirty)
	sess, gen, timeout := s.session, s.gen, s.config().connectTimeout()
	s.work.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		r := listResult{gen: gen, kinds: kinds}
		for _, k := range kinds {
			c, err := sess.List(ctx, k)
			if err != nil {
				r.err = fmt.Errorf("re-list %s: %w", k, err)
				break
			}
			r.caps = r.caps.with(k, c)
		}
		select {
		case s.lists <- r:
		case <-s.quit:
		}
	})
}

func (s *supervisor) onRelist(r listResult) {
	if r.gen != s.gen {
		return
	}
	if r.err != nil {
		// The last good lists keep serving and the server stays connected,
		// but it says what failed, so consumers see the lists may be stale;
		// a later good re-list clears it. A broken connection
		// shows up through Done or the next probe, which handle it properly.
		s.st.clearError()
		s.st.Error = s.redact.Redact(r.err.Error())
		s.st.ErrorCategory = Categorize(r.err)
		s.st.LastErrorAt = s.opts.Clock.Now()
		s.publish()
		s.opts.Log.Warn("re-list failed", "server", s.st.ServerName, "error", s.st.Error)
		return
	}
	caps := s.capabilities()
	for _, k := range r.kinds {
		caps = caps.with(k, r.caps)
	}
	s.setCaps(caps)
	s.st.clearError()
	s.st.LastSyncAt = s.opts.Clock.Now()
	s.publish()
}
