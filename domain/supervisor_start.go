package domain

import (
	"errors"
	"time"
)

// stderrEvery is how often at most a starting server's newest stderr line
// is published: often enough to follow a download, seldom enough that a
// chatty start cannot flood the event stream.
const stderrEvery = time.Second

// onLimit ends the attempt in flight when its limit passes and reports the
// timeout at once. A stdio start cut off this way was merely slow, as far
// as anyone knows yet: it backs off and retries but does not count toward
// auto-disable unless its result shows that the process had crashed.
func (s *supervisor) onLimit() {
	e := s.limitErr
	e.Step = StepInitialize
	if s.listing != nil && s.listing.Load() {
		e.Step = StepLists
	}
	if s.cancel != nil {
		s.cancel(&e)
		s.cancel = nil
	}
	s.mu.Lock()
	stdio := s.cfg.Transport == TransportStdio
	s.mu.Unlock()
	s.opts.Log.Warn("connection attempt cut off by its limit", "server", s.st.ServerName,
		"limit", e.Limit.String(), "setting", e.Setting)
	if stdio {
		// The attempt's result still arrives once the connector has
		// stopped the process, possibly after later attempts were cut off
		// too; it says whether the process had exited on its own, which
		// decides whether this failure counts toward auto-disable.
		if s.cutOffs == nil {
			s.cutOffs = map[int]time.Time{}
		}
		s.cutOffs[s.gen] = s.opts.Clock.Now()
	}
	s.failCounting(&e, !stdio)
}

// stopLimit disarms the deadline of an attempt that has ended.
func (s *supervisor) stopLimit() {
	if s.limit != nil {
		s.limit.Stop()
		s.limit = nil
	}
}

// onCutOffResult takes the late result of an attempt its limit ended: if
// the process had exited on its own, that start was a crash after all and
// now counts toward auto-disable, which may turn the server off.
func (s *supervisor) onCutOffResult(r attemptResult) {
	at, ok := s.cutOffs[r.gen]
	if !ok {
		return
	}
	delete(s.cutOffs, r.gen)
	if !exitedOnItsOwn(r.err) {
		return
	}
	now := s.opts.Clock.Now()
	s.failures = append(s.recentFailures(now), at)
	ad := s.opts.AutoDisable
	if ad.Threshold <= 0 || len(s.failures) < ad.Threshold || s.st.DisabledReason != DisabledNone {
		return
	}
	if s.st.Phase != PhaseWaiting && s.st.Phase != PhaseConnecting {
		return
	}
	s.stopAll()
	s.autoDisable()
	s.publish()
}

// exitedOnItsOwn reports whether a failed attempt's process ended without
// Switchboard stopping it.
func exitedOnItsOwn(err error) bool {
	var hte *HandshakeTimeoutError
	if errors.As(err, &hte) {
		return hte.Exited
	}
	var ce *ConnError
	return errors.As(err, &ce) && ce.Category == CategoryExited && ce.Signal == ""
}

// stderrFeed is the writer a connector copies a process's stderr into: the
// ring keeps the lines, and changed nudges the loop, which shows the newest
// line while the process starts.
type stderrFeed struct {
	ring    *LineRing
	changed chan struct{} // capacity 1: nudges merge while the loop is busy
}

func (f stderrFeed) Write(p []byte) (int, error) {
	n, err := f.ring.Write(p)
	select {
	case f.changed <- struct{}{}:
	default:
	}
	return n, err
}

// onStderr publishes a starting server's newest stderr line, at most once
// per stderrEvery; a line that comes sooner waits for the timer.
func (s *supervisor) onStderr() {
	if s.st.StartingSince.IsZero() || s.stderrTimer != nil {
		return
	}
	now := s.opts.Clock.Now()
	if wait := stderrEvery - now.Sub(s.stderrAt); !s.stderrAt.IsZero() && wait > 0 {
		s.stderrTimer = s.opts.Clock.NewTimer(wait)
		return
	}
	last := s.stderr.Since(s.stderrMark, 1)
	if len(last) == 0 {
		return
	}
	line := s.redact.Redact(last[0])
	if line == s.st.LastStderr {
		return
	}
	s.st.LastStderr = line
	s.stderrAt = now
	s.publish()
}
