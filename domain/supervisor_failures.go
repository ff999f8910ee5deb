package domain

// Failures: recording them, backing off, and the auto-disable rule.

import (
	"errors"
	"time"
)

// stderrTailLines is how much of a crashed process's stderr goes into its
// error: enough for a panic message, short enough for a tooltip.
const stderrTailLines = 3

// fail records a failure and decides between retrying, giving up and
// auto-disabling.
func (s *supervisor) fail(err error) { s.failCounting(err, true) }

// failCounting is fail for a failure that may not count toward
// auto-disable (counts false): it still backs off like any other. One
// that may count does so only when it says the server itself is broken
// (serverAtFault); a failure of the path to it never counts.
func (s *supervisor) failCounting(err error, counts bool) {
	if err == nil {
		err = &ConnError{Category: CategoryProtocol, Err: errors.New("connection lost")}
	}
	if Categorize(err) == CategorySignIn {
		s.failSignIn(err)
		return
	}
	cat := Categorize(err)
	counts = counts && s.serverAtFault(cat)
	s.stopAll()
	now := s.opts.Clock.Now()
	var ce *ConnError
	if errors.As(err, &ce) && ce.Category == CategoryExited && len(ce.StderrTail) == 0 {
		ce.StderrTail = s.stderr.Since(s.stderrMark, stderrTailLines)
	}
	s.consecutive++
	s.failures = s.recentFailures(now)
	if counts {
		s.failures = append(s.failures, now)
	}

	s.st.clearError()
	s.st.Error = s.redact.Redact(err.Error())
	s.st.ErrorCategory = cat
	if ce != nil && cat == CategoryExited {
		code := ce.ExitCode
		s.st.ExitCode = &code
		if n := len(ce.StderrTail); ce.Signal != "" && n > 0 {
			s.st.Signal = ce.Signal
			s.st.ErrorStderr = s.redact.Redact(ce.StderrTail[n-1])
		} else {
			s.st.Signal = ce.Signal
		}
	}
	var hte *HandshakeTimeoutError
	if errors.As(err, &hte) {
		s.st.TimeoutLimit, s.st.TimeoutSetting = hte.Limit, hte.Setting
		if s.st.ErrorStderr == "" {
			if last := s.stderr.Since(s.stderrMark, 1); len(last) > 0 {
				s.st.ErrorStderr = s.redact.Redact(last[0])
			}
		}
	}
	s.st.LastErrorAt = now
	s.st.Retryable = cat.Transient()
	ad := s.opts.AutoDisable
	// "attempt N of 5" only where auto-disable can happen, counting what
	// it counts; otherwise the failure's number in this outage, of no limit.
	s.st.Attempt, s.st.MaxAttempts = s.consecutive, 0
	if counts {
		s.st.Attempt, s.st.MaxAttempts = len(s.failures), ad.Threshold
	}
	s.st.ConnectedAt = time.Time{}
	s.st.HasLatency = false
	s.st.Latency = 0

	s.mu.Lock()
	auto := s.cfg.AutoReconnect
	s.mu.Unlock()
	switch {
	case counts && ad.Threshold > 0 && len(s.failures) >= ad.Threshold:
		s.autoDisable()
	case !cat.Transient() || !auto:
		s.transition(EvGiveUp)
		s.opts.Log.Warn("server failed, no automatic retry", "server", s.st.ServerName,
			"category", string(cat), "error", s.st.Error)
	default:
		s.transition(EvFail)
		s.st.Delay = s.opts.Backoff.Delay(s.consecutive-1, s.opts.Rand())
		s.st.NextRetryAt = now.Add(s.st.Delay)
		if !counts && s.opts.Backoff.AtCeiling(s.consecutive-1) {
			s.st.RetryEvery = s.opts.Backoff.Max
		}
		s.retry = s.opts.Clock.NewTimer(s.st.Delay)
		s.opts.Log.Warn("server failed, retrying", "server", s.st.ServerName, "category", string(cat),
			"attempt", s.consecutive, "retry_in", s.st.Delay.String(), "error", s.st.Error)
	}
	s.publish()
}

func (s *supervisor) recentFailures(now time.Time) []time.Time {
	keep := s.failures[:0]
	for _, t := range s.failures {
		if now.Sub(t) < s.opts.AutoDisable.Window {
			keep = append(keep, t)
		}
	}
	return keep
}

func (s *supervisor) resetFailures() {
	s.consecutive = 0
	s.failures = nil
	clear(s.cutOffs)
	s.st.Attempt = 0
	s.st.MaxAttempts = s.opts.AutoDisable.Threshold
}

// connectedResets starts the backoff over after a good connect but keeps
// the counted failures of the window: a server that connects and then
// fails again, five times in ten minutes, is a crash loop all the same,
// and its failures age out of the window on their own.
func (s *supervisor) connectedResets() {
	s.consecutive = 0
	clear(s.cutOffs)
	s.st.Attempt = 0
	s.st.MaxAttempts = s.opts.AutoDisable.Threshold
}

// serverAtFault reports whether a failure of category cat says the server
// itself is broken, which is what auto-disable is for: a process that
// exited, or a server that was reached and failed anyway (a stdio process
// always is). A failure of the path to a remote server (refused, timeout,
// dns, tls, or a network error before it answered) says nothing about the
// server: a laptop off the network for a minute must not disable anything.
// Called before stopAll, while the session and the attempt are still known.
func (s *supervisor) serverAtFault(cat ErrorCategory) bool {
	switch {
	case cat == CategoryExited:
		return true
	case cat.pathFailure():
		return false
	}
	s.mu.Lock()
	stdio := s.cfg.Transport == TransportStdio
	s.mu.Unlock()
	reached := s.session != nil || (s.listing != nil && s.listing.Load())
	return stdio || reached
}

// autoDisable turns the server off after too many failures in the window;
// the caller has stopped everything and publishes.
func (s *supervisor) autoDisable() {
	s.transition(EvAutoDisable)
	s.st.DisabledReason = DisabledAuto
	s.stateSet = true
	s.persist()
	s.opts.Log.Warn("server auto-disabled", "server", s.st.ServerName, "failures", len(s.failures),
		"window", s.opts.AutoDisable.Window.String(), "error", s.st.Error)
}
