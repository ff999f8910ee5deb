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

// T1: attach goes connecting -> connected and the counts populate.
func TestAttachConnects(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	st := r.waitPhase("a", domain.PhaseConnecting)
	if st.State != domain.StateConnecting || st.Target != "srv" {
		t.Errorf("first snapshot %s target %q, want connecting target srv", st.State, st.Target)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x", "y", "z")))
	st = r.waitPhase("a", domain.PhaseConnected)
	if st.State != domain.StateConnected || st.ToolCount != 3 || st.ResourceCount != 1 || st.PromptCount != 2 {
		t.Errorf("connected snapshot = %s tools %d resources %d prompts %d, want connected 3/1/2",
			st.State, st.ToolCount, st.ResourceCount, st.PromptCount)
	}
	if !st.ConnectedAt.Equal(epoch) || !st.LastSyncAt.Equal(epoch) || st.ProtocolVersion != "2025-11-25" {
		t.Errorf("connectedAt %v lastSync %v protocol %q, want %v, %v, 2025-11-25", st.ConnectedAt, st.LastSyncAt, st.ProtocolVersion, epoch, epoch)
	}
	got, err := r.fleet.Capabilities("a")
	if err != nil || len(got.Tools) != 3 {
		t.Errorf("Capabilities = %d tools, %v; want 3, nil", len(got.Tools), err)
	}
}

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

// R4.1: error -> connecting -> connected clears the error text, category
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
			// A manual restart still works (seed 000 N2).
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

func TestKeepAliveProbe(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	sess := domaintest.NewSession(caps())
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)

	r.clock.WaitForTimer(t, 30*time.Second)
	r.clock.Advance(30 * time.Second)
	sess.AnswerProbe(t, nil)
	st := r.waitFor("a", "latency", func(s domain.Status) bool { return s.HasLatency })
	if st.Phase != domain.PhaseConnected {
		t.Errorf("after a good probe: %s, want connected", st.Phase)
	}

	r.clock.WaitForTimer(t, 30*time.Second)
	r.clock.Advance(30 * time.Second)
	sess.AnswerProbe(t, &domain.ConnError{Category: domain.CategoryTimeout, Err: errors.New("no answer")})
	st = r.waitPhase("a", domain.PhaseWaiting)
	if st.ErrorCategory != domain.CategoryTimeout || st.HasLatency {
		t.Errorf("after a failed probe: %s latency=%v, want timeout and no latency", st.ErrorCategory, st.HasLatency)
	}
	sess.WaitClosed(t)
	r.clock.WaitForTimer(t, time.Second)
	r.clock.Advance(time.Second)
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	r.waitPhase("a", domain.PhaseConnected)
}

func TestDisableEnablePersists(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	sess := domaintest.NewSession(caps("x"))
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)

	st, err := r.fleet.Disable(context.Background(), "a")
	if err != nil || st.State != domain.StateDisabled || st.DisabledReason != domain.DisabledManual {
		t.Fatalf("Disable = %s %q, %v; want disabled manual", st.State, st.DisabledReason, err)
	}
	sess.WaitClosed(t)
	if c, _ := r.fleet.Capabilities("a"); len(c.Tools) != 1 {
		t.Errorf("disabled server lost its cached lists")
	}

	// A second fleet over the same store is Switchboard restarted.
	r2 := newRig(t, nil)
	r2.store = r.store
	r2.fleet = domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: r2.conn, Store: r.store, Clock: r2.clock, Hub: r2.fleet.Hub(), Scope: domain.Scope{User: "local", Workspace: "/w"}}})
	r2.attach(server("a"))
	st = r2.waitPhase("a", domain.PhaseStopped)
	if st.DisabledReason != domain.DisabledManual {
		t.Errorf("after restart: reason %q, want manual", st.DisabledReason)
	}
	if err := r2.fleet.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	if _, err := r.fleet.Enable(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps("x", "y")))
	st = r.waitPhase("a", domain.PhaseConnected)
	if st.ToolCount != 2 {
		t.Errorf("re-enabled tool count %d, want the reloaded 2", st.ToolCount)
	}
}

func TestDisabledInSettingsStartsDisabled(t *testing.T) {
	r := newRig(t, nil)
	cfg := server("a")
	cfg.Disabled = true
	r.attach(cfg)
	st := r.waitPhase("a", domain.PhaseStopped)
	if st.State != domain.StateDisabled {
		t.Errorf("state %s, want disabled", st.State)
	}
}

func TestRestartReconnects(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	old := domaintest.NewSession(caps())
	r.conn.Next(t).Succeed(old)
	r.waitPhase("a", domain.PhaseConnected)
	st, err := r.fleet.Restart(context.Background(), "a")
	if err != nil || st.Phase != domain.PhaseConnecting {
		t.Fatalf("Restart = %s, %v; want connecting", st.Phase, err)
	}
	old.WaitClosed(t)
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	r.waitPhase("a", domain.PhaseConnected)
}

func TestListChangedIsDebouncedAndReloads(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	sess := domaintest.NewSession(caps("x"))
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)
	sess.SetCaps(caps("x", "y", "z"))
	for range 4 {
		sess.Announce(domain.ListTools)
	}
	r.clock.WaitForTimer(t, 250*time.Millisecond)
	r.clock.Advance(250 * time.Millisecond)
	st := r.waitFor("a", "3 tools", func(s domain.Status) bool { return s.ToolCount == 3 })
	if st.Phase != domain.PhaseConnected {
		t.Errorf("phase %s after re-list, want connected", st.Phase)
	}
}

type recordingEditor struct{ removed []string }

func (e *recordingEditor) RemoveServer(ctx context.Context, path, name string) error {
	e.removed = append(e.removed, path+"#"+name)
	return nil
}

func TestRemoveEditsFilePurgesAndDisposes(t *testing.T) {
	ed := &recordingEditor{}
	r := newRig(t, func(o *domain.FleetOptions) { o.Editor = ed })
	cfg := server("a")
	cfg.Source = "/tmp/settings.json"
	r.attach(cfg)
	sess := domaintest.NewSession(caps())
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)
	if _, err := r.fleet.Disable(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if err := r.fleet.Remove(context.Background(), "a"); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	r.waitPhase("a", domain.PhaseDisposed)
	if len(ed.removed) != 1 || ed.removed[0] != "/tmp/settings.json#a" {
		t.Errorf("editor calls %q, want the entry removed from its file", ed.removed)
	}
	recs, _ := r.store.ServerRecords(context.Background(), domain.Scope{User: "local", Workspace: "/w"})
	if _, ok := recs["a"]; ok {
		t.Errorf("stored record survived Remove")
	}
	if _, err := r.fleet.Status("a"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Status after Remove = %v, want ErrNotFound", err)
	}
}

func TestUnknownServer(t *testing.T) {
	r := newRig(t, nil)
	for name, call := range map[string]func() error{
		"restart": func() error { _, err := r.fleet.Restart(context.Background(), "nope"); return err },
		"disable": func() error { _, err := r.fleet.Disable(context.Background(), "nope"); return err },
		"remove":  func() error { return r.fleet.Remove(context.Background(), "nope") },
	} {
		if err := call(); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
	}
}
