package handlers

import (
	"context"
	"sync/atomic"
)

// relaySignals records which of inner and own fired, in innerFired and
// ownFired, and nudges wake after each without blocking, until ctx ends;
// then it calls stop. The page stream's extra feeds (questions, server
// logs) each wrap the signal waitAll waits on this way, so one wait sees
// all of them and each can still tell whose signal it was.
func relaySignals(ctx context.Context, inner, own <-chan struct{}, innerFired, ownFired *atomic.Bool, wake chan<- struct{}, stop func()) {
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-inner:
			innerFired.Store(true)
		case <-own:
			ownFired.Store(true)
		}
		select {
		case wake <- struct{}{}:
		default:
		}
	}
}
