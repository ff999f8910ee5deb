package domain

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// supervisor keeps one server connected. A single goroutine (run) owns all
// connection state and is the only writer of the server's status, so no
// two transitions can race and every published snapshot is consistent.
// Slow work (connecting, probing, re-listing, closing) runs in helper
// goroutines that report back to the loop.
type supervisor struct {
	opts   SupervisorOptions
	cmds   chan command
	quit   chan struct{} // closed when the loop stops accepting results
	done   chan struct{} // closed when the loop and its helpers are gone
	stderr *LineRing
	feed   stderrFeed     // stderr as the connector writes it: the ring, and a nudge to the loop
	work   sync.WaitGroup // helper goroutines

	mu   sync.Mutex // guards caps, cfg and live for readers outside the loop
	caps Capabilities
	cfg  ServerConfig
	live Session // the connected session, for tool calls; nil while not connected

	// Everything below is owned by the loop goroutine.
	redact      Redactor
	st          Status
	gen         int                     // identifies the current attempt or session; stale reports carry an older one
	cancel      context.CancelCauseFunc // ends the attempt in flight
	limit       Timer                   // the attempt in flight's deadline
	limitErr    HandshakeTimeoutError   // what passing that deadline reports
	listing     *atomic.Bool            // the attempt in flight got past initialize
	cutOffs     map[int]time.Time       // when the limit ended each attempt (by generation) whose result is not in yet
	stderrTimer Timer                   // a held-back LastStderr update
	stderrAt    time.Time               // when LastStderr was last published
	session     Session
	results     chan attemptResult
	probes      chan probeResult
	lists       chan listResult
	retry       Timer
	probe       Timer
	debounce    Timer
	probing     bool
	dirty       map[ListKind]bool
	consecutive int
	failures    []time.Time // failure times within the auto-disable window
	stderrMark  uint64
	overrides   SettingsOverride
	stateSet    bool         // a person or the auto-disable rule chose enabled or disabled
	fileCfg     ServerConfig // the config as the settings file has it, before overrides

	// The server's sign-in (supervisor_auth.go), also owned by the loop.
	authNudge chan struct{} // capacity 1: the sign-in changed (Fleet.AuthChanged)
	authMoved bool          // a person signed in while the attempt in flight ran
	authSeen  AuthState     // the sign-in state the last onAuthChanged saw
}

// stderrTailLines is how much of a crashed process's stderr goes into its
// error: enough for a panic message, short enough for a tooltip.
const stderrTailLines = 3

type commandKind int

const (
	cmdRestart commandKind = iota
	cmdDisable
	cmdEnable
	cmdDispose
	cmdSettings
	cmdReconfigure
)

type command struct {
	kind     commandKind
	settings SettingsOverride // for cmdSettings
	config   ServerConfig     // for cmdReconfigure
	reply    chan commandReply
}

type commandReply struct {
	status Status
	err    error
}

type attemptResult struct {
	gen     int
	session Session
	caps    Capabilities
	err     error
}

type probeResult struct {
	gen     int
	latency time.Duration
	err     error
}

type listResult struct {
	gen   int
	kinds []ListKind
	caps  Capabilities
	err   error
}

// startSupervisor attaches cfg; rec is what was stored about the server.
func startSupervisor(opts SupervisorOptions, cfg ServerConfig, rec *ServerRecord) *supervisor {
	s := &supervisor{
		opts:    opts,
		cmds:    make(chan command),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
		stderr:  NewLineRing(opts.StderrLines),
		fileCfg: cfg,
		redact:  cfg.Redactor(),
		results: make(chan attemptResult),
		probes:  make(chan probeResult),
		lists:   make(chan listResult),
		dirty:   map[ListKind]bool{},
	}
	s.feed = stderrFeed{ring: s.stderr, changed: make(chan struct{}, 1)}
	s.authNudge = make(chan struct{}, 1)
	if rec != nil {
		s.overrides = rec.Overrides
		// An older drawer saved keep-alive intervals the range now refuses
		// (1-4 s probes flap healthy servers): such a one is dropped.
		if ka := s.overrides.KeepAlive; ka != nil {
			if err := KeepAliveRange.Check(*ka); err != nil {
				opts.Log.Warn("stored keep-alive interval ignored, the settings file's applies", "server", cfg.Name, "error", err)
				s.overrides.KeepAlive = nil
			}
		}
	}
	s.cfg = s.overrides.apply(cfg)
	s.st = Status{
		ServerName:  cfg.Name,
		Source:      cfg.Source,
		Transport:   cfg.Transport,
		Target:      cfg.Target(),
		WorkDir:     cfg.WorkDir(),
		MaxAttempts: opts.AutoDisable.Threshold,
	}
	s.st.AutoReconnect, s.st.KeepAlive = s.cfg.AutoReconnect, s.cfg.KeepAlive
	reason := DisabledNone
	switch {
	case rec != nil && rec.StateSet:
		s.stateSet = true
		reason = rec.DisabledReason
	case cfg.Disabled:
		reason = DisabledManual
	}
	if reason != DisabledNone {
		s.st.DisabledReason = reason
		s.transition(EvDisable)
		if reason == DisabledAuto {
			s.st.Phase = PhaseExhausted
		}
		s.publish()
	} else {
		s.connect(EvConnect)
	}
	go s.run()
	return s
}

func (s *supervisor) run() {
	defer func() {
		s.work.Wait()
		close(s.done)
	}()
	for {
		select {
		case c := <-s.cmds:
			if s.handle(c) {
				return
			}
		case r := <-s.results:
			s.onAttempt(r)
		case <-timerC(s.limit):
			s.limit = nil
			s.onLimit()
		case <-s.feed.changed:
			s.onStderr()
		case <-timerC(s.stderrTimer):
			s.stderrTimer = nil
			s.onStderr()
		case <-timerC(s.retry):
			s.retry = nil
			s.connect(EvConnect)
		case <-timerC(s.probe):
			s.probe = nil
			s.startProbe()
		case r := <-s.probes:
			s.onProbe(r)
		case <-sessionDone(s.session):
			s.fail(s.session.Err())
		case k, ok := <-sessionChanges(s.session):
			if ok {
				s.onChange(k)
			}
		case <-timerC(s.debounce):
			s.debounce = nil
			s.startRelist()
		case r := <-s.lists:
			s.onRelist(r)
		case <-s.authNudge:
			s.onAuthChanged()
		}
	}
}

// handle applies a person's command and reports whether the loop must end.
func (s *supervisor) handle(c command) bool {
	var err error
	switch c.kind {
	case cmdRestart:
		if s.st.DisabledReason != DisabledNone {
			err = fmt.Errorf("restart %s: %w", s.st.ServerName, ErrServerDisabled)
			break
		}
		s.opts.Log.Info("server restart requested", "server", s.st.ServerName)
		s.resetFailures()
		s.connect(EvConnect)
	case cmdDisable:
		s.disable(DisabledManual)
	case cmdEnable:
		if s.st.DisabledReason == DisabledNone {
			break // already enabled: nothing to do
		}
		s.st.DisabledReason = DisabledNone
		s.stateSet = true
		s.persist()
		s.resetFailures()
		s.connect(EvEnable)
	case cmdSettings:
		s.applySettings(c.settings)
	case cmdReconfigure:
		s.reconfigure(c.config)
	case cmdDispose:
		s.stopAll()
		s.transition(EvDispose)
		s.publish()
		close(s.quit)
		c.reply <- commandReply{status: s.st}
		return true
	}
	c.reply <- commandReply{status: s.st, err: err}
	return false
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
	// connecting snapshot must not claim it is still up (issue #12).
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

func (s *supervisor) disable(reason DisabledReason) {
	s.stopAll()
	s.transition(EvDisable)
	s.st.DisabledReason = reason
	s.stateSet = true
	s.st.clearError()
	s.st.ConnectedAt = time.Time{}
	s.st.HasLatency = false
	s.resetFailures()
	s.persist()
	s.publish()
	s.opts.Log.Info("server disabled", "server", s.st.ServerName, "reason", string(reason))
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

func (s *supervisor) transition(ev Event) {
	next, ok := Next(s.st.Phase, ev)
	if !ok {
		// The loop only fires events the table allows; reaching here is a bug
		// worth seeing in the log rather than a silent wrong state.
		s.opts.Log.Error("refused transition", "server", s.st.ServerName, "phase", string(s.st.Phase), "event", string(ev))
		return
	}
	s.st.Phase = next
}

func (s *supervisor) publish() {
	s.st.State = StateOf(s.st.Phase, s.st.DisabledReason)
	s.st.Auth = s.authStatus()
	s.st = s.opts.Hub.Publish(s.st)
}

func (s *supervisor) persist() {
	if s.opts.Store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rec := ServerRecord{Name: s.st.ServerName, StateSet: s.stateSet, DisabledReason: s.st.DisabledReason,
		Overrides: s.overrides, UpdatedAt: s.opts.Clock.Now()}
	if err := s.opts.Store.SaveServerRecord(ctx, s.opts.Scope, rec); err != nil {
		s.opts.Log.Error("save server state", "server", s.st.ServerName, "error", err)
	}
}

func (s *supervisor) setCaps(c Capabilities) {
	s.mu.Lock()
	s.caps = c
	s.mu.Unlock()
	s.st.ToolCount = len(c.Tools)
	s.st.ResourceCount = len(c.Resources)
	s.st.PromptCount = len(c.Prompts)
}

func (s *supervisor) capabilities() Capabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

func (s *supervisor) liveSession() Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live
}

func (s *supervisor) config() ServerConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

// applySettings takes a person's new settings: they are stored, and a
// changed keep-alive interval is re-armed at once, with no reconnect.
func (s *supervisor) applySettings(o SettingsOverride) {
	s.overrides = s.overrides.merge(o)
	s.mu.Lock()
	s.cfg = s.overrides.apply(s.fileCfg)
	cfg := s.cfg
	s.mu.Unlock()
	s.st.AutoReconnect, s.st.KeepAlive = cfg.AutoReconnect, cfg.KeepAlive
	if s.probe != nil {
		s.probe.Stop()
		s.probe = nil
	}
	if !s.probing {
		s.armProbe()
	}
	s.persist()
	s.publish()
	s.opts.Log.Info("server settings changed", "server", s.st.ServerName,
		"auto_reconnect", cfg.AutoReconnect, "keep_alive", cfg.KeepAlive.String())
}

// reconfigure takes a new settings-file entry whose connection is the same
// (same Fingerprint): only Switchboard's own keys changed, so they apply
// in place. A changed "disabled" applies unless a person chose the state.
func (s *supervisor) reconfigure(cfg ServerConfig) {
	s.mu.Lock()
	wasDisabled := s.fileCfg.Disabled
	s.fileCfg = cfg
	s.mu.Unlock()
	s.applySettings(SettingsOverride{})
	s.st.Source = cfg.Source
	if !s.stateSet && cfg.Disabled != wasDisabled {
		if cfg.Disabled {
			s.disable(DisabledManual)
			s.stateSet = false // still the file's choice
			s.persist()
		} else if s.st.DisabledReason != DisabledNone {
			s.st.DisabledReason = DisabledNone
			s.resetFailures()
			s.connect(EvEnable)
		}
	}
}

func (s *supervisor) fileConfig() ServerConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fileCfg
}

// send delivers a command and waits for the loop's answer.
func (s *supervisor) send(ctx context.Context, kind commandKind) (Status, error) {
	return s.sendCommand(ctx, command{kind: kind})
}

func (s *supervisor) sendCommand(ctx context.Context, c command) (Status, error) {
	c.reply = make(chan commandReply, 1)
	select {
	case s.cmds <- c:
	case <-s.quit:
		return Status{}, ErrClosed
	case <-ctx.Done():
		return Status{}, ctx.Err()
	}
	r := <-c.reply
	return r.status, r.err
}

func timerC(t Timer) <-chan time.Time {
	if t == nil {
		return nil
	}
	return t.C()
}

func sessionDone(s Session) <-chan struct{} {
	if s == nil {
		return nil
	}
	return s.Done()
}

func sessionChanges(s Session) <-chan ListKind {
	if s == nil {
		return nil
	}
	return s.Changes()
}
