package domain_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// scriptedLoad hands out configs the test sets, counting passes, and can
// hold a pass until released to test coalescing.
type scriptedLoad struct {
	mu     sync.Mutex
	cfg    domain.LoadedConfig
	err    error
	passes int
	hold   chan struct{}
	inPass chan struct{}
}

func (l *scriptedLoad) set(cfg domain.LoadedConfig, err error) {
	l.mu.Lock()
	l.cfg, l.err = cfg, err
	l.mu.Unlock()
}

func (l *scriptedLoad) load(ctx context.Context) (domain.LoadedConfig, error) {
	l.mu.Lock()
	l.passes++
	hold, in := l.hold, l.inPass
	cfg, err := l.cfg, l.err
	l.mu.Unlock()
	if in != nil {
		in <- struct{}{}
	}
	if hold != nil {
		<-hold
	}
	return cfg, err
}

func TestReloaderKeepsLastGoodOnError(t *testing.T) {
	r := newRig(t, nil)
	l := &scriptedLoad{}
	rl := domain.NewReloader(domain.ReloaderOptions{Load: l.load, Fleet: r.fleet, Clock: r.clock})
	l.set(domain.LoadedConfig{Servers: []domain.ServerConfig{server("a")}}, nil)
	if _, res, err := rl.Reload(context.Background()); err != nil || len(res.Added) != 1 {
		t.Fatalf("first reload: %+v, %v", res, err)
	}
	sess := domaintest.NewSession(caps())
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)

	bad := &domain.SettingsError{File: "s.json", Line: 3, Column: 9, Message: "invalid JSON"}
	l.set(domain.LoadedConfig{}, bad)
	st, res, err := rl.Reload(context.Background())
	if err != nil || st.Error != bad || len(res.Removed) != 0 {
		t.Fatalf("bad save: state error %v, result %+v, %v; want the error shown and nothing removed", st.Error, res, err)
	}
	if s, _ := r.fleet.Status("a"); s.Phase != domain.PhaseConnected {
		t.Errorf("a bad save stopped a: %s", s.Phase)
	}

	// A bad entry keeps that server's last good config; the file's fix clears the banner.
	l.set(domain.LoadedConfig{Problems: []*domain.SettingsError{{Server: "a", Message: "wrong type"}}}, nil)
	if st, res, _ := rl.Reload(context.Background()); st.Error == nil || len(res.Removed) != 0 {
		t.Errorf("bad entry: error %v removed %v; want the error shown and a kept", st.Error, res.Removed)
	}
	l.set(domain.LoadedConfig{Servers: []domain.ServerConfig{server("a")}}, nil)
	if st, res, _ := rl.Reload(context.Background()); st.Error != nil || len(res.Unchanged) != 1 {
		t.Errorf("fixed file: error %v result %+v; want no error and a untouched", st.Error, res)
	}
}

// Two triggers during a pass lead to exactly one more pass.
func TestReloaderCoalescesTriggersDuringAPass(t *testing.T) {
	r := newRig(t, nil)
	l := &scriptedLoad{hold: make(chan struct{}), inPass: make(chan struct{}, 4)}
	rl := domain.NewReloader(domain.ReloaderOptions{Load: l.load, Fleet: r.fleet, Clock: r.clock})
	changed, stop := rl.Subscribe()
	defer stop()
	rl.Trigger()
	<-l.inPass // the first pass is running and held
	rl.Trigger()
	rl.Trigger()
	// The second pass finds a different file, so it is a reload too.
	l.set(domain.LoadedConfig{Servers: []domain.ServerConfig{server("a")}}, nil)
	l.hold <- struct{}{} // finish pass 1
	<-l.inPass           // pass 2 starts
	l.hold <- struct{}{}
	for rl.State().Version < 2 {
		<-changed
	}
	l.mu.Lock()
	passes := l.passes
	l.mu.Unlock()
	if passes != 2 {
		t.Errorf("passes = %d, want 2 (one more for the changes that came during the first)", passes)
	}
	select {
	case <-l.inPass:
		t.Errorf("a third pass ran")
	default:
	}
}

func TestReloaderReportsPlainErrors(t *testing.T) {
	r := newRig(t, nil)
	rl := domain.NewReloader(domain.ReloaderOptions{Fleet: r.fleet, Load: func(context.Context) (domain.LoadedConfig, error) {
		return domain.LoadedConfig{}, errors.New("permission denied")
	}})
	st, _, err := rl.Reload(context.Background())
	if err != nil || st.Error == nil || st.Error.Message != "permission denied" {
		t.Errorf("state error %v, %v; want the message shown", st.Error, err)
	}
}
