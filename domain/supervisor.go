package domain

import (
	"context"
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
