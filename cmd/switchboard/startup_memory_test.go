package main

import (
	"context"
	"os"
	"runtime/debug"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// TestStartupMemoryReleasesOnceQuiet checks that the startup burst is
// handed back once, and only after the fleet has been quiet for Quiet.
func TestStartupMemoryReleasesOnceQuiet(t *testing.T) {
	hub := domain.NewHub()
	clock := domaintest.NewClock(time.Unix(0, 0))
	const quiet = time.Second
	released := make(chan struct{}, 2)
	hub.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseConnecting})
	done := make(chan struct{})
	go func() {
		defer close(done)
		startupMemory{Hub: hub, Clock: clock, Quiet: quiet, Release: func() { released <- struct{}{} }}.run(context.Background())
	}()
	hub.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseConnected})
	clock.WaitForTimer(t, quiet)
	// News that is not a connect keeps the wait as it was.
	hub.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseConnected, HasLatency: true})
	clock.Advance(quiet - time.Nanosecond)
	select {
	case <-released:
		t.Fatal("released before the quiet time was up")
	default:
	}
	clock.Advance(time.Nanosecond)
	<-done
	if len(released) != 1 {
		t.Errorf("released %d times, want once", len(released))
	}
}

// TestStartupMemoryStopsWithContext checks that a process that ends
// before its fleet is quiet leaves no goroutine behind and releases
// nothing.
func TestStartupMemoryStopsWithContext(t *testing.T) {
	hub := domain.NewHub()
	hub.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseConnecting})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	startupMemory{Hub: hub, Clock: domaintest.NewClock(time.Unix(0, 0)), Quiet: time.Second,
		Release: func() { t.Error("released") }}.run(ctx)
}

// TestConnectingSet checks when the fleet counts as quiet: while any
// server's newest snapshot says connecting, it is not.
func TestConnectingSet(t *testing.T) {
	c := connectingSet{}
	st := func(name string, p domain.Phase) domain.Status { return domain.Status{ServerName: name, Phase: p} }
	for _, step := range []struct {
		sts  []domain.Status
		idle bool
	}{
		{[]domain.Status{st("a", domain.PhaseConnecting), st("b", domain.PhaseConnecting)}, false},
		{[]domain.Status{st("a", domain.PhaseConnected)}, false},
		{[]domain.Status{st("b", domain.PhaseWaiting)}, true},
		{[]domain.Status{st("b", domain.PhaseConnecting)}, false},
		{[]domain.Status{st("b", domain.PhaseDisposed)}, true},
		{nil, true},
	} {
		if got := c.note(step.sts); got != step.idle {
			t.Fatalf("after %v: idle %v, want %v", step.sts, got, step.idle)
		}
	}
}

// Once the burst is handed back, the collector runs at idleGCPercent,
// unless the person set GOGC, which stays theirs.
func TestReleaseLowersTheCollectorsAllowance(t *testing.T) {
	restore := debug.SetGCPercent(100)
	defer debug.SetGCPercent(restore)
	t.Setenv("GOGC", "100")
	releaseStartupBurst()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: collector at %d%%, want the person's 100%%", got)
	}
	os.Unsetenv("GOGC") // t.Setenv restores it afterwards
	releaseStartupBurst()
	if got := debug.SetGCPercent(100); got != idleGCPercent {
		t.Errorf("without GOGC: collector at %d%%, want %d%%", got, idleGCPercent)
	}
}
