package handlers

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A stream's first wait returns the hub's full list at once, and a later
// publish ends the next wait without waiting out the heartbeat.
func TestWaitAllReturnsSnapshotsAtOnce(t *testing.T) {
	hub := domain.NewHub()
	hub.Publish(domain.Status{ServerName: "a"})
	sub := hub.Subscribe()
	defer sub.Close()
	statuses, invs, woke, idle := waitAll(context.Background(), time.Hour, sub, nil, nil)
	if len(statuses) != 1 || statuses[0].ServerName != "a" || len(invs) != 0 || woke || idle {
		t.Fatalf("first wait = %v, %v, woke %v, idle %v; want a's snapshot only", statuses, invs, woke, idle)
	}
	hub.Publish(domain.Status{ServerName: "b"})
	if statuses, _, _, _ := waitAll(context.Background(), time.Hour, sub, nil, nil); len(statuses) != 1 || statuses[0].ServerName != "b" {
		t.Fatalf("second wait = %v, want b's snapshot", statuses)
	}
}

// The extra signal ends a wait and is reported as such, with nothing else.
func TestWaitAllReportsWake(t *testing.T) {
	sub := domain.NewHub().Subscribe()
	defer sub.Close()
	wake := make(chan struct{}, 1)
	wake <- struct{}{}
	statuses, _, woke, idle := waitAll(context.Background(), time.Hour, sub, nil, wake)
	if len(statuses) != 0 || !woke || idle {
		t.Fatalf("wait = %v, woke %v, idle %v; want woke only", statuses, woke, idle)
	}
}

// A heartbeat with nothing pending is idle; a cancelled context is not.
func TestWaitAllIdleAndCancelled(t *testing.T) {
	sub := domain.NewHub().Subscribe()
	defer sub.Close()
	if _, _, woke, idle := waitAll(context.Background(), time.Nanosecond, sub, nil, nil); woke || !idle {
		t.Fatalf("quiet heartbeat: woke %v, idle %v; want idle", woke, idle)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if statuses, _, woke, idle := waitAll(ctx, time.Hour, sub, nil, nil); statuses != nil || woke || idle {
		t.Fatalf("cancelled: %v, woke %v, idle %v; want nothing", statuses, woke, idle)
	}
}
