package domain_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

func TestFingerprint(t *testing.T) {
	base := domain.ServerConfig{Name: "a", Transport: domain.TransportStdio, Command: "npx", Args: []string{"-y", "srv"},
		Env: map[string]string{"A": "1", "B": "2"}, KeepAlive: time.Second}
	same := base
	same.Env = map[string]string{"B": "2", "A": "1"}
	same.KeepAlive = time.Hour
	same.AutoReconnect = true
	swapped := base
	swapped.Args = []string{"srv", "-y"}
	header := base
	header.Headers = map[string]string{"X": "y"}
	if base.Fingerprint() != same.Fingerprint() {
		t.Errorf("env key order or Switchboard's own keys changed the fingerprint")
	}
	if base.Fingerprint() == swapped.Fingerprint() {
		t.Errorf("argument order did not change the fingerprint")
	}
	if base.Fingerprint() == header.Fingerprint() {
		t.Errorf("headers did not change the fingerprint")
	}
}

// One changed server reconnects; the others keep their session and
// connectedAt; a new one connects and a removed one is disposed.
func TestApplyTouchesOnlyWhatChanged(t *testing.T) {
	r := newRig(t, nil)
	a, b, c := server("a"), server("b"), server("c")
	r.attach(a, b, c)
	sessions := map[string]*domaintest.Session{}
	connectedAt := map[string]time.Time{}
	for range 3 {
		at := r.conn.Next(t)
		sess := domaintest.NewSession(caps("x"))
		sessions[at.Config.Name] = sess
		at.Succeed(sess)
	}
	for _, n := range []string{"a", "b", "c"} {
		connectedAt[n] = r.waitPhase(n, domain.PhaseConnected).ConnectedAt
	}
	r.clock.Advance(time.Second)

	b2 := b
	b2.Args = []string{"--new"}
	c2 := c
	c2.KeepAlive = 5 * time.Second
	d := server("d")
	res, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{b2, c2, d})
	if err != nil {
		t.Fatal(err)
	}
	want := domain.ApplyResult{Added: []string{"d"}, Removed: []string{"a"}, Reconnected: []string{"b"}, Updated: []string{"c"}}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("Apply = %+v, want %+v", res, want)
	}
	r.waitPhase("a", domain.PhaseDisposed)
	sessions["a"].WaitClosed(t)
	sessions["b"].WaitClosed(t)
	for range 2 { // b reconnects with its new args, d connects
		at := r.conn.Next(t)
		if at.Config.Name == "b" && !reflect.DeepEqual(at.Config.Args, []string{"--new"}) {
			t.Errorf("b reconnected with args %v, want the new ones", at.Config.Args)
		}
		at.Succeed(domaintest.NewSession(caps("x")))
	}
	r.waitPhase("d", domain.PhaseConnected)
	st, _ := r.fleet.Status("c")
	if st.Phase != domain.PhaseConnected || !st.ConnectedAt.Equal(connectedAt["c"]) || st.KeepAlive != 5*time.Second {
		t.Errorf("c: %s since %v keepAlive %v; want still connected since %v with the new 5s", st.Phase, st.ConnectedAt, st.KeepAlive, connectedAt["c"])
	}

	// Applying the same settings again touches nothing.
	res, err = r.fleet.Apply(context.Background(), []domain.ServerConfig{b2, c2, d})
	if err != nil || len(res.Unchanged) != 3 || len(res.Added)+len(res.Removed)+len(res.Reconnected)+len(res.Updated) != 0 {
		t.Errorf("second Apply = %+v, %v; want everything unchanged", res, err)
	}
}

func TestApplyDisabledInFile(t *testing.T) {
	r := newRig(t, nil)
	a := server("a")
	r.attach(a)
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	r.waitPhase("a", domain.PhaseConnected)
	off := a
	off.Disabled = true
	if _, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{off}); err != nil {
		t.Fatal(err)
	}
	r.waitPhase("a", domain.PhaseStopped)
	if _, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{a}); err != nil {
		t.Fatal(err)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	r.waitPhase("a", domain.PhaseConnected)
}

// A server that left the settings is not merely unknown: lookups say it
// was removed, and a tool call names the reason.
func TestRemovedServerSaysWhy(t *testing.T) {
	r := newRig(t, nil)
	a, b := server("a"), server("b")
	r.attach(a, b)
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	if _, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{b}); err != nil {
		t.Fatal(err)
	}
	_, err := r.fleet.Restart(context.Background(), "a")
	if !errors.Is(err, domain.ErrRemoved) || !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Restart of a removed server: %v, want ErrRemoved (a kind of not found)", err)
	}
	if _, err := r.fleet.Capabilities("a"); !errors.Is(err, domain.ErrRemoved) {
		t.Errorf("Capabilities of a removed server: %v, want ErrRemoved", err)
	}
	if _, err := r.fleet.Restart(context.Background(), "never"); errors.Is(err, domain.ErrRemoved) || !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Restart of an unknown server: %v, want plain not found", err)
	}
	// Re-added, it is an ordinary server again.
	if _, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{a, b}); err != nil {
		t.Fatal(err)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	if _, err := r.fleet.Capabilities("a"); err != nil {
		t.Errorf("Capabilities after re-adding: %v", err)
	}
}

// Settings going empty remove every server; filling them again adds them.
func TestApplyEmptyAndBack(t *testing.T) {
	r := newRig(t, nil)
	a := server("a")
	if res, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{a}); err != nil || len(res.Added) != 1 {
		t.Fatalf("Apply([a]) = %+v, %v", res, err)
	}
	sess := domaintest.NewSession(caps())
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)
	if res, err := r.fleet.Apply(context.Background(), nil); err != nil || len(res.Removed) != 1 {
		t.Fatalf("Apply(nil) = %+v, %v; want a removed", res, err)
	}
	sess.WaitClosed(t)
	if got := r.fleet.Hub().List(); len(got) != 0 {
		t.Errorf("hub still lists %d servers", len(got))
	}
	if res, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{a}); err != nil || len(res.Added) != 1 {
		t.Fatalf("Apply([a]) again = %+v, %v; want a added", res, err)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	r.waitPhase("a", domain.PhaseConnected)
}
