package domain

// Connect attempts: starting one, taking its result, and stopping whatever
// is in flight.

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// attemptResult is what a connect attempt reports back to the loop; gen
// tells a stale attempt's result from the current one's.
type attemptResult struct {
	gen     int
	session Session
	caps    Capabilities
	err     error
}

// connect abandons whatever is in flight and starts a new attempt.
func (s *supervisor) connect(ev Event) {
	s.stopAll()
	s.transition(ev)
	s.gen++
	gen := s.gen
	s.mu.Lock()
	cfg := s.cfg
	s.mu.Unlock()
	// The limit runs on the supervisor's clock and ends the attempt with
	// its own cause, so the failure lands when the limit passes rather
	// than once the connector has finished stopping a process.
	ctx, cancel := context.WithCancelCause(context.Background())
	s.cancel = cancel
	limit, setting := cfg.attemptLimit()
	s.limit = s.opts.Clock.NewTimer(limit)
	s.limitErr = HandshakeTimeoutError{Limit: limit, Setting: setting}
	listing := &atomic.Bool{}
	s.listing = listing
	s.stderrMark = s.stderr.Seq()
	s.authMoved = false
	s.st.Delay = 0
	s.st.NextRetryAt = time.Time{}
	// The session these described is closed or never was: a restart's
	// connecting snapshot must not claim it is still up.
	s.st.ConnectedAt = time.Time{}
	s.st.HasLatency = false
	s.st.Latency = 0
	if cfg.Transport == TransportStdio {
		s.st.StartingSince = s.opts.Clock.Now()
	}
	s.publish()
	s.work.Go(func() {
		defer cancel(nil)
		sess, err := s.opts.Connector.Connect(ctx, cfg, s.feed)
		var caps Capabilities
		if err == nil {
			listing.Store(true)
			caps, err = LoadAll(ctx, sess)
			if err != nil {
				err = fmt.Errorf("list capabilities: %w", err)
				_ = sess.Close()
				sess = nil
			}
		}
		select {
		case s.results <- attemptResult{gen: gen, session: sess, caps: caps, err: err}:
		case <-s.quit:
			if sess != nil {
				_ = sess.Close()
			}
		}
	})
}

func (s *supervisor) onAttempt(r attemptResult) {
	if r.gen != s.gen {
		if r.session != nil {
			s.closeSession(r.session)
		}
		s.onCutOffResult(r)
		return
	}
	s.cancel = nil
	s.stopLimit()
	if r.err != nil {
		s.fail(r.err)
		return
	}
	now := s.opts.Clock.Now()
	s.session = r.session
	s.mu.Lock()
	s.live = r.session
	s.mu.Unlock()
	s.setCaps(r.caps)
	s.connectedResets()
	s.transition(EvConnected)
	s.st.clearError()
	s.st.StartingSince, s.st.LastStderr = time.Time{}, ""
	s.st.ConnectedAt = now
	s.st.LastSyncAt = now
	s.st.ProtocolVersion = r.session.ProtocolVersion()
	s.st.HasLatency = false
	s.st.Latency = 0
	s.publish()
	s.opts.Log.Info("server connected", "server", s.st.ServerName, "protocol", s.st.ProtocolVersion,
		"tools", s.st.ToolCount, "resources", s.st.ResourceCount, "prompts", s.st.PromptCount)
	s.armProbe()
}

// stopAll cancels the attempt in flight, closes the session and stops
// every timer, leaving the server idle.
func (s *supervisor) stopAll() {
	if s.cancel != nil {
		s.cancel(nil)
		s.cancel = nil
	}
	s.gen++ // anything still running now reports a stale generation
	s.st.StartingSince, s.st.LastStderr = time.Time{}, ""
	if s.session != nil {
		s.mu.Lock()
		s.live = nil
		s.mu.Unlock()
		s.closeSession(s.session)
		s.session = nil
	}
	for _, t := range []*Timer{&s.retry, &s.probe, &s.debounce, &s.limit, &s.stderrTimer} {
		if *t != nil {
			(*t).Stop()
			*t = nil
		}
	}
	s.probing = false
	clear(s.dirty)
}

// closeSession closes in the background: a stdio server gets a grace
// period to exit, and commands must not wait for it.
func (s *supervisor) closeSession(sess Session) {
	s.work.Go(func() { _ = sess.Close() })
}
