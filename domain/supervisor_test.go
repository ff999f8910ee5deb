package domain_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// Attach goes connecting -> connected and the counts populate.
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
