package domain_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// settled waits for the snapshot that ends a failure: a retry scheduled,
// or no retry at all.
func (r *rig) settled(name string) domain.Status {
	r.t.Helper()
	return r.waitFor(name, "the failure settled", func(s domain.Status) bool {
		return s.Phase == domain.PhaseWaiting || s.Phase == domain.PhaseExhausted
	})
}

// A failure of the path to a server (a laptop off the network,
// a remote server restarting) never auto-disables it, however long it
// lasts; the retries climb to the 30 s ceiling and stay there, and the
// snapshot says no failure count applies.
func TestPathFailuresKeepRetryingAtTheCeiling(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
	}{
		{"refused", &domain.ConnError{Category: domain.CategoryRefused, Err: errors.New("connection refused")}},
		{"timeout", &domain.ConnError{Category: domain.CategoryTimeout, Err: errors.New("i/o timeout")}},
		{"dns", &domain.ConnError{Category: domain.CategoryDNS, Err: errors.New("no such host")}},
		// An unreachable network or a reset TLS handshake has no category
		// of its own; the server was never reached either way.
		{"network-unreachable", &domain.ConnError{Category: domain.CategoryProtocol, Err: errors.New("connect: network is unreachable")}},
		{"tls-handshake-reset", &domain.ConnError{Category: domain.CategoryProtocol, Err: errors.New("tls handshake: connection reset by peer")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, nil) // the default backoff and auto-disable rule
			r.attach(remoteServer("a", 30*time.Second))
			want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30, 30}
			for i, w := range want {
				r.conn.Next(t).Fail(tt.err)
				st := r.settled("a")
				if st.Phase != domain.PhaseWaiting || st.DisabledReason != domain.DisabledNone {
					t.Fatalf("failure %d, %v into the outage: phase %s reason %q, want waiting and not disabled",
						i+1, r.clock.Now().Sub(epoch), st.Phase, st.DisabledReason)
				}
				if st.Delay != w*time.Second || st.Attempt != i+1 || st.MaxAttempts != 0 {
					t.Fatalf("failure %d: delay %v attempt %d of %d; want %v, attempt %d of no limit (0)",
						i+1, st.Delay, st.Attempt, st.MaxAttempts, w*time.Second, i+1)
				}
				wantEvery := time.Duration(0)
				if w == 30 {
					wantEvery = 30 * time.Second
				}
				if st.RetryEvery != wantEvery {
					t.Fatalf("failure %d: retry every %v, want %v", i+1, st.RetryEvery, wantEvery)
				}
				r.clock.WaitForTimer(t, st.Delay)
				r.clock.Advance(st.Delay)
				r.waitPhase("a", domain.PhaseConnecting)
			}
			// The network comes back: the server connects as if nothing happened.
			r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
			st := r.waitPhase("a", domain.PhaseConnected)
			if st.Attempt != 0 || st.RetryEvery != 0 || st.Error != "" {
				t.Errorf("reconnected: attempt %d every %v error %q, want none", st.Attempt, st.RetryEvery, st.Error)
			}
		})
	}
}

// A server that is itself broken still auto-disables: a process that
// exits five times within ten minutes, or a remote server that answers
// initialize and then fails its lists five times.
func TestCrashLoopAutoDisables(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  domain.ServerConfig
		fail func(a *domaintest.Attempt)
	}{
		{"process-exits", server("a"), func(a *domaintest.Attempt) {
			a.Fail(crashed())
		}},
		{"remote-connects-and-fails", remoteServer("a", 30*time.Second), func(a *domaintest.Attempt) {
			sess := domaintest.NewSession(caps("x"))
			sess.FailLists(&domain.ConnError{Category: domain.CategoryProtocol, Err: errors.New("internal error")})
			a.Succeed(sess)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, nil)
			r.attach(tt.cfg)
			for i := range 4 {
				tt.fail(r.conn.Next(t))
				st := r.settled("a")
				if st.Phase != domain.PhaseWaiting || st.Attempt != i+1 || st.MaxAttempts != 5 || st.RetryEvery != 0 {
					t.Fatalf("failure %d: %s attempt %d of %d every %v; want waiting, attempt %d of 5, no steady retry",
						i+1, st.Phase, st.Attempt, st.MaxAttempts, st.RetryEvery, i+1)
				}
				r.clock.WaitForTimer(t, st.Delay)
				r.clock.Advance(st.Delay)
			}
			if d := r.clock.Now().Sub(epoch); d > 10*time.Minute {
				t.Fatalf("the loop took %v, longer than the window", d)
			}
			tt.fail(r.conn.Next(t))
			st := r.settled("a")
			if st.Phase != domain.PhaseExhausted || st.State != domain.StateDisabled || st.DisabledReason != domain.DisabledAuto {
				t.Errorf("5th failure: %s/%s reason %q, want exhausted, disabled, auto", st.Phase, st.State, st.DisabledReason)
			}
		})
	}
}

// Path failures do not add to a crash count either: two crashes, then an
// outage of any length, then two more crashes leave the server enabled.
func TestPathFailuresDoNotAddToCrashCount(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	exited := crashed()
	for i, err := range []error{exited, exited, transient("refused"), transient("refused"), transient("refused"), exited, exited} {
		r.conn.Next(t).Fail(err)
		st := r.settled("a")
		if st.Phase != domain.PhaseWaiting {
			t.Fatalf("failure %d (%v): phase %s reason %q, want waiting", i+1, err, st.Phase, st.DisabledReason)
		}
		r.clock.WaitForTimer(t, st.Delay)
		r.clock.Advance(st.Delay)
	}
}

// While a restart connects again, the closed session's connect
// time and probe latency are gone from the snapshot.
func TestRestartClearsConnectedAtAndLatency(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	sess := domaintest.NewSession(caps("x"))
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)
	r.clock.WaitForTimer(t, 30*time.Second)
	r.clock.Advance(30 * time.Second)
	sess.AnswerProbe(t, nil)
	r.waitFor("a", "latency", func(s domain.Status) bool { return s.HasLatency })

	st, err := r.fleet.Restart(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	pub := r.waitPhase("a", domain.PhaseConnecting)
	for _, s := range []domain.Status{st, pub} {
		if !s.ConnectedAt.IsZero() || s.HasLatency || s.Latency != 0 {
			t.Errorf("connecting after restart: connectedAt %v latency %v (has %v), want neither", s.ConnectedAt, s.Latency, s.HasLatency)
		}
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	if st := r.waitPhase("a", domain.PhaseConnected); !st.ConnectedAt.Equal(r.clock.Now()) {
		t.Errorf("reconnected at %v, want %v", st.ConnectedAt, r.clock.Now())
	}
}

// A re-list after list_changed that fails is published: the
// server stays connected with its last good lists and carries the error
// until a later re-list succeeds.
func TestFailedRelistPublishesError(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	sess := domaintest.NewSession(caps("x"))
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)

	sess.FailLists(errors.New("tools/list: internal error"))
	sess.Announce(domain.ListTools)
	r.clock.WaitForTimer(t, 250*time.Millisecond)
	r.clock.Advance(250 * time.Millisecond)
	st := r.waitFor("a", "the re-list error", func(s domain.Status) bool { return s.Error != "" })
	if st.Phase != domain.PhaseConnected || st.State != domain.StateConnected || st.ToolCount != 1 {
		t.Errorf("after a failed re-list: %s/%s with %d tools, want connected with the last good 1", st.Phase, st.State, st.ToolCount)
	}
	if st.Error != "re-list tools: tools/list: internal error" || st.ErrorCategory != domain.CategoryProtocol || !st.LastErrorAt.Equal(r.clock.Now()) {
		t.Errorf("error %q category %q at %v, want the re-list's error, protocol, now", st.Error, st.ErrorCategory, st.LastErrorAt)
	}

	sess.FailLists(nil)
	sess.SetCaps(caps("x", "y"))
	sess.Announce(domain.ListTools)
	r.clock.WaitForTimer(t, 250*time.Millisecond)
	r.clock.Advance(250 * time.Millisecond)
	st = r.waitFor("a", "2 tools", func(s domain.Status) bool { return s.ToolCount == 2 })
	if st.Error != "" || st.ErrorCategory != "" || !st.LastErrorAt.IsZero() {
		t.Errorf("a good re-list kept the error: %q %q %v", st.Error, st.ErrorCategory, st.LastErrorAt)
	}
}

// A server that connects and then dies, five times in ten minutes, is a
// crash loop too: a good connect starts the backoff over but does not
// forget the failures counted in the window.
func TestConnectThenCrashLoopAutoDisables(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	for i := range 5 {
		sess := domaintest.NewSession(caps("x"))
		r.conn.Next(t).Succeed(sess)
		r.waitFor("a", "connected", func(s domain.Status) bool { return s.State == domain.StateConnected })
		sess.Lose(crashed())
		st := r.settled("a")
		if i < 4 {
			if st.Phase != domain.PhaseWaiting || st.Attempt != i+1 || st.MaxAttempts != 5 || st.Delay != time.Second {
				t.Fatalf("crash %d: %s attempt %d of %d, delay %v; want waiting, attempt %d of 5, backoff started over at 1s",
					i+1, st.Phase, st.Attempt, st.MaxAttempts, st.Delay, i+1)
			}
			r.clock.WaitForTimer(t, st.Delay)
			r.clock.Advance(st.Delay)
			continue
		}
		if st.State != domain.StateDisabled || st.DisabledReason != domain.DisabledAuto {
			t.Errorf("5th crash: %s reason %q, want disabled, auto", st.State, st.DisabledReason)
		}
	}
}
