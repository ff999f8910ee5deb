package domain_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

func ptr[T any](v T) *T { return &v }

// A new keep-alive interval applies at once, without a reconnect, and is
// stored for the next start.
func TestUpdateSettingsAppliesWithoutReconnect(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	sess := domaintest.NewSession(caps("x"))
	r.conn.Next(t).Succeed(sess)
	connected := r.waitPhase("a", domain.PhaseConnected)
	r.clock.WaitForTimer(t, 30*time.Second)

	st, err := r.fleet.UpdateSettings(context.Background(), "a", domain.SettingsOverride{KeepAlive: ptr(5 * time.Second), AutoReconnect: ptr(false)})
	if err != nil {
		t.Fatal(err)
	}
	if st.KeepAlive != 5*time.Second || st.AutoReconnect || st.Phase != domain.PhaseConnected || !st.ConnectedAt.Equal(connected.ConnectedAt) {
		t.Errorf("after update: keepAlive %v auto %v phase %s connectedAt %v; want 5s, false, still connected since %v",
			st.KeepAlive, st.AutoReconnect, st.Phase, st.ConnectedAt, connected.ConnectedAt)
	}
	if got := r.clock.Timers(); len(got) != 1 || got[0] != 5*time.Second {
		t.Errorf("timers %v, want only the new 5s probe", got)
	}
	recs, _ := r.store.ServerRecords(context.Background(), domain.Scope{User: "local", Workspace: "/w"})
	if o := recs["a"].Overrides; o.KeepAlive == nil || *o.KeepAlive != 5*time.Second || o.AutoReconnect == nil || *o.AutoReconnect {
		t.Errorf("stored overrides %+v, want keepAlive 5s and autoReconnect false", o)
	}
	if recs["a"].StateSet {
		t.Errorf("a settings change recorded an enable/disable choice")
	}

	// autoReconnect off now means a failure is not retried.
	sess.Lose(&domain.ConnError{Category: domain.CategoryExited, ExitCode: 1, Err: domain.ErrProcessExited})
	if st := r.waitPhase("a", domain.PhaseExhausted); !st.NextRetryAt.IsZero() {
		t.Errorf("retry scheduled with autoReconnect off")
	}
}

func TestStoredOverridesApplyAtStart(t *testing.T) {
	r := newRig(t, nil)
	scope := domain.Scope{User: "local", Workspace: "/w"}
	_ = r.store.SaveServerRecord(context.Background(), scope, domain.ServerRecord{Name: "a", Overrides: domain.SettingsOverride{KeepAlive: ptr(7 * time.Second)}})
	_ = r.store.SaveServerRecord(context.Background(), scope, domain.ServerRecord{Name: "b", Overrides: domain.SettingsOverride{KeepAlive: ptr(7 * time.Second)}})
	off := server("b")
	off.Disabled = true
	r.attach(server("a"), off)
	if st := r.waitPhase("a", domain.PhaseConnecting); st.KeepAlive != 7*time.Second {
		t.Errorf("keepAlive %v, want the stored 7s", st.KeepAlive)
	}
	// A record holding only settings leaves the file's "disabled" in charge.
	if st := r.waitPhase("b", domain.PhaseStopped); st.State != domain.StateDisabled {
		t.Errorf("b: %s, want disabled as the file says", st.State)
	}
	r.conn.Next(t).Fail(transient("refused")) // let a's attempt finish
}

func TestUpdateSettingsRejectsBadValues(t *testing.T) {
	r := newRig(t, nil)
	r.attach(server("a"))
	for _, ka := range []time.Duration{-time.Second, 500 * time.Millisecond, 2 * time.Hour} {
		if _, err := r.fleet.UpdateSettings(context.Background(), "a", domain.SettingsOverride{KeepAlive: ptr(ka)}); !errors.Is(err, domain.ErrInvalidSettings) {
			t.Errorf("keepAlive %v: %v, want ErrInvalidSettings", ka, err)
		}
	}
	r.conn.Next(t).Fail(transient("refused"))
}
