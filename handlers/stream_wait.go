package handlers

import (
	"context"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// waitAll waits at most one heartbeat for whatever an event stream follows
// — status snapshots, invocation changes (isub nil for none) and one more
// signal (wake nil for none) — and returns what is pending. woke reports
// that wake fired; idle that nothing happened for a whole heartbeat, which
// the caller answers with a ping. Every source is a channel, so one select
// waits on them all and nothing is left running when it returns.
func waitAll(ctx context.Context, heartbeat time.Duration, sub *domain.Subscription, isub *domain.InvocationSubscription, wake <-chan struct{}) (statuses []domain.Status, invs []domain.Invocation, woke bool, idle bool) {
	var changed <-chan struct{}
	if isub != nil {
		changed = isub.Ready()
	}
	timer := time.NewTimer(heartbeat)
	defer timer.Stop()
	for {
		timedOut := false
		select {
		case <-ctx.Done():
			return nil, nil, false, false
		case <-timer.C:
			timedOut = true
		case <-sub.Ready():
		case <-changed:
		case <-wake:
			woke = true
		}
		statuses = sub.Drain()
		if isub != nil {
			invs = isub.Drain()
		}
		if len(statuses) > 0 || len(invs) > 0 || woke {
			return statuses, invs, woke, false
		}
		if timedOut {
			return nil, nil, false, true
		}
		// A signal whose changes an earlier Drain already took: keep
		// waiting out the same heartbeat.
	}
}
