package domain_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// The retry schedule is exactly 1, 2, 4, 8, 16 s, then 30 s, and the next
// retry time is part of the state.
func TestBackoffScheduleIsExact(t *testing.T) {
	r := newRig(t, func(o *domain.FleetOptions) { o.AutoDisable = domain.AutoDisable{Threshold: 100, Window: time.Hour} })
	r.attach(server("a"))
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30}
	for i, w := range want {
		r.conn.Next(t).Fail(transient("connection refused"))
		st := r.waitPhase("a", domain.PhaseWaiting)
		if st.Delay != w*time.Second || !st.NextRetryAt.Equal(r.clock.Now().Add(w*time.Second)) || st.Attempt != i+1 {
			t.Fatalf("failure %d: delay %v next %v attempt %d; want %v, now+%v, %d", i+1, st.Delay, st.NextRetryAt, st.Attempt, w*time.Second, w*time.Second, i+1)
		}
		if st.State != domain.StateError || st.ErrorCategory != domain.CategoryRefused || !st.Retryable {
			t.Fatalf("failure %d: %s %s retryable=%v, want error refused retryable", i+1, st.State, st.ErrorCategory, st.Retryable)
		}
		r.clock.WaitForTimer(t, w*time.Second)
		r.clock.Advance(w*time.Second - time.Millisecond)
		if got := r.clock.Timers(); len(got) != 1 {
			t.Fatalf("failure %d: retry fired early; timers %v", i+1, got)
		}
		r.clock.Advance(time.Millisecond)
		r.waitPhase("a", domain.PhaseConnecting)
	}
}

func TestBackoffJitterStaysWithinTenPercent(t *testing.T) {
	r := newRig(t, func(o *domain.FleetOptions) { o.Rand = func() float64 { return 0.999 } })
	r.attach(server("a"))
	r.conn.Next(t).Fail(transient("refused"))
	st := r.waitPhase("a", domain.PhaseWaiting)
	if st.Delay <= time.Second || st.Delay > 1100*time.Millisecond {
		t.Errorf("jittered delay %v, want in (1s, 1.1s]", st.Delay)
	}
}

// error -> connecting -> connected clears the error text, category
// and time in the very snapshot that says connected.
func TestReconnectClearsErrorInSameSnapshot(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	r.conn.Next(t).Fail(transient("connection refused"))
	st := r.waitPhase("a", domain.PhaseWaiting)
	if st.Error == "" || st.LastErrorAt.IsZero() {
		t.Fatalf("waiting snapshot has no error: %+v", st)
	}
	r.clock.WaitForTimer(t, time.Second)
	r.clock.Advance(time.Second)
	st = r.waitPhase("a", domain.PhaseConnecting)
	if st.Error == "" {
		t.Errorf("connecting snapshot dropped the last error; the tooltip needs it while retrying")
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	st = r.waitPhase("a", domain.PhaseConnected)
	if st.State != domain.StateConnected || st.Error != "" || st.ErrorCategory != "" || !st.LastErrorAt.IsZero() ||
		st.Attempt != 0 || !st.NextRetryAt.IsZero() || st.ExitCode != nil {
		t.Errorf("connected snapshot still carries the error: %+v", st)
	}
}

func TestAutoDisableAfterFiveFailures(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	for i := range 4 {
		r.conn.Next(t).Fail(crashed())
		st := r.waitPhase("a", domain.PhaseWaiting)
		r.clock.WaitForTimer(t, st.Delay)
		r.clock.Advance(st.Delay)
		_ = i
	}
	r.conn.Next(t).Fail(crashed())
	st := r.waitPhase("a", domain.PhaseExhausted)
	if st.State != domain.StateDisabled || st.DisabledReason != domain.DisabledAuto || st.Error == "" {
		t.Errorf("after 5 failures: %s reason %q error %q; want disabled, auto, the last error", st.State, st.DisabledReason, st.Error)
	}
	if got := r.clock.Timers(); len(got) != 0 {
		t.Errorf("timers still armed after auto-disable: %v", got)
	}
	recs, _ := r.store.ServerRecords(context.Background(), domain.Scope{User: "local", Workspace: "/w"})
	if recs["a"].DisabledReason != domain.DisabledAuto {
		t.Errorf("stored reason %q, want auto", recs["a"].DisabledReason)
	}
	if _, err := r.fleet.Restart(context.Background(), "a"); !errors.Is(err, domain.ErrServerDisabled) {
		t.Errorf("Restart of auto-disabled server = %v, want ErrServerDisabled", err)
	}
	if _, err := r.fleet.Enable(context.Background(), "a"); err != nil {
		t.Fatalf("Enable: %v", err)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x")))
	st = r.waitPhase("a", domain.PhaseConnected)
	if st.DisabledReason != "" {
		t.Errorf("enabled server still has reason %q", st.DisabledReason)
	}
}

// Failures spread wider than the window never add up to an auto-disable.
func TestAutoDisableWindow(t *testing.T) {
	r := newRig(t, func(o *domain.FleetOptions) {
		o.AutoDisable = domain.AutoDisable{Threshold: 3, Window: 10 * time.Second}
		o.Backoff = domain.Backoff{Initial: 8 * time.Second, Max: 8 * time.Second}
	})
	r.attach(server("a"))
	for range 6 {
		r.conn.Next(t).Fail(crashed())
		r.waitPhase("a", domain.PhaseWaiting)
		r.clock.WaitForTimer(t, 8*time.Second)
		r.clock.Advance(8 * time.Second)
	}
}

// The failure counter starts over after a successful connect.
func TestAutoDisableCounterResetsOnConnect(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	failTimes := func(n int) {
		for range n {
			r.conn.Next(t).Fail(crashed())
			st := r.waitPhase("a", domain.PhaseWaiting)
			r.clock.WaitForTimer(t, st.Delay)
			r.clock.Advance(st.Delay)
		}
	}
	failTimes(4)
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	r.waitPhase("a", domain.PhaseConnected)
	if _, err := r.fleet.Restart(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	failTimes(4)
	st := r.waitFor("a", "attempt 4 reconnecting", func(s domain.Status) bool { return s.Phase == domain.PhaseConnecting })
	if st.Attempt != 4 || st.DisabledReason != "" {
		t.Errorf("attempt %d reason %q, want 4 and not disabled", st.Attempt, st.DisabledReason)
	}
}

func TestPermanentErrorsAreNotRetried(t *testing.T) {
	for _, cat := range []domain.ErrorCategory{domain.CategoryTLS, domain.CategoryAuth, domain.CategoryConfig} {
		t.Run(string(cat), func(t *testing.T) {
			r := newRig(t, nil)
			r.attach(server("a"))
			r.conn.Next(t).Fail(&domain.ConnError{Category: cat, Err: errors.New("nope")})
			st := r.waitPhase("a", domain.PhaseExhausted)
			if st.State != domain.StateError || st.Retryable || !st.NextRetryAt.IsZero() || st.ErrorCategory != cat {
				t.Errorf("got %s retryable=%v next=%v cat=%s; want error, not retryable, no retry, %s", st.State, st.Retryable, st.NextRetryAt, st.ErrorCategory, cat)
			}
			if got := r.clock.Timers(); len(got) != 0 {
				t.Errorf("a retry was scheduled: %v", got)
			}
			// A manual restart still works: a server that gave up is never stuck.
			if _, err := r.fleet.Restart(context.Background(), "a"); err != nil {
				t.Fatalf("Restart: %v", err)
			}
			r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
			r.waitPhase("a", domain.PhaseConnected)
		})
	}
}

func TestTransientCategoriesAreRetried(t *testing.T) {
	for _, cat := range []domain.ErrorCategory{domain.CategoryTimeout, domain.CategoryRefused, domain.CategoryDNS,
		domain.CategoryExited, domain.CategoryProtocol, domain.CategorySession} {
		if !cat.Transient() {
			t.Errorf("%s.Transient() = false, want true", cat)
		}
	}
}

func TestAutoReconnectOffGivesUp(t *testing.T) {
	r := newRig(t, nil)
	cfg := server("a")
	cfg.AutoReconnect = false
	r.attach(cfg)
	r.conn.Next(t).Fail(transient("refused"))
	st := r.waitPhase("a", domain.PhaseExhausted)
	if !st.Retryable || !st.NextRetryAt.IsZero() {
		t.Errorf("retryable=%v next=%v; want retryable error with no retry scheduled", st.Retryable, st.NextRetryAt)
	}
}

// A crash of a connected server reports the exit code and the stderr it
// wrote, then reconnects.
func TestCrashReportsExitAndStderr(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	a := r.conn.Next(t)
	sess := domaintest.NewSession(caps("x"))
	a.Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)
	fmt.Fprintln(a.Stderr, "panic: out of cheese")
	sess.Lose(&domain.ConnError{Category: domain.CategoryExited, ExitCode: 2, Err: domain.ErrProcessExited})
	st := r.waitPhase("a", domain.PhaseWaiting)
	if st.ExitCode == nil || *st.ExitCode != 2 || st.Error != "exited (code 2): panic: out of cheese" {
		t.Errorf("crash snapshot error %q exit %v, want exit 2 with the stderr tail", st.Error, st.ExitCode)
	}
	sess.WaitClosed(t)
	lines, _ := r.fleet.Stderr("a")
	if len(lines) != 1 || lines[0] != "panic: out of cheese" {
		t.Errorf("Stderr = %q", lines)
	}
}
