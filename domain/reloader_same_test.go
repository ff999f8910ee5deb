package domain_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A save that parses to the same settings in another order (a reindent,
// reordered keys, this program's own write) is no reload: the state,
// its version and lastReloadAt stay, and subscribers hear nothing.
func TestReloaderIgnoresASaveThatChangesNothing(t *testing.T) {
	r := newRig(t, nil)
	l := &scriptedLoad{}
	rl := domain.NewReloader(domain.ReloaderOptions{Load: l.load, Fleet: r.fleet, Clock: r.clock})
	src := func(names ...string) []domain.ConfigSource {
		return []domain.ConfigSource{{Path: "/u/settings.json", Scope: "user", Servers: names}}
	}
	a, b := server("a"), server("b")
	a.Env = map[string]string{"X": "1", "Y": "2"}
	l.set(domain.LoadedConfig{Servers: []domain.ServerConfig{a, b}, Sources: src("a", "b")}, nil)
	first, _, err := rl.Reload(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	changed, stop := rl.Subscribe()
	defer stop()

	r.clock.Advance(time.Minute)
	a2 := server("a")
	a2.Env = map[string]string{"Y": "2", "X": "1"}
	l.set(domain.LoadedConfig{Servers: []domain.ServerConfig{b, a2}, Sources: src("b", "a")}, nil)
	st, res, err := rl.Reload(context.Background())
	if err != nil || len(res.Unchanged) != 2 {
		t.Fatalf("same settings: result %+v, %v; want both unchanged", res, err)
	}
	if st.Version != first.Version || !st.LastReloadAt.Equal(first.LastReloadAt) {
		t.Errorf("same settings: version %d at %v, want %d at %v", st.Version, st.LastReloadAt, first.Version, first.LastReloadAt)
	}
	select {
	case <-changed:
		t.Errorf("subscribers were told of a save that changed nothing")
	default:
	}

	// A real change is a reload again.
	b.KeepAlive = 10 * time.Second
	l.set(domain.LoadedConfig{Servers: []domain.ServerConfig{a, b}, Sources: src("a", "b")}, nil)
	if st, _, _ := rl.Reload(context.Background()); st.Version != first.Version+1 || !st.LastReloadAt.After(first.LastReloadAt) {
		t.Errorf("keep-alive edit: version %d at %v, want %d and later than %v", st.Version, st.LastReloadAt, first.Version+1, first.LastReloadAt)
	}
}

// After an unreadable save, the same good settings as before are a reload:
// the state must drop the error.
func TestReloaderClearsTheErrorOfAFailedLoad(t *testing.T) {
	r := newRig(t, nil)
	l := &scriptedLoad{}
	rl := domain.NewReloader(domain.ReloaderOptions{Load: l.load, Fleet: r.fleet, Clock: r.clock})
	good := domain.LoadedConfig{Servers: []domain.ServerConfig{server("a")}}
	l.set(good, nil)
	if _, _, err := rl.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.set(domain.LoadedConfig{}, errors.New("unexpected end of JSON input"))
	if st, _, _ := rl.Reload(context.Background()); st.Error == nil {
		t.Fatal("half-written save: no error in the state")
	}
	l.set(good, nil)
	if st, _, _ := rl.Reload(context.Background()); st.Error != nil {
		t.Errorf("good save again: error %v, want none", st.Error)
	}
}
