package domain

import (
	"context"
	"fmt"
	"sync/atomic"
)

// NotReadyError is a call to a server that is not connected: it was still
// (re)connecting when the wait for it ended, or it is failing with no
// retry on the way. It names the server's state so that an AI client, and
// the model reading its tool error, knows whether trying again can help;
// it is ErrNotConnected to errors.Is.
type NotReadyError struct {
	Server string
	Status Status // the server's newest snapshot when the wait ended
}

func (e *NotReadyError) Error() string {
	st := e.Status
	switch {
	case reconnecting(st) && st.Attempt > 0:
		return fmt.Sprintf("server %q is reconnecting (attempt %d); try again", e.Server, st.Attempt+1)
	case reconnecting(st) && !st.ConnectedAt.IsZero():
		return fmt.Sprintf("server %q is reconnecting; try again", e.Server)
	case reconnecting(st):
		return fmt.Sprintf("server %q is connecting; try again", e.Server)
	case st.ErrorCategory == CategorySignIn && st.DisabledReason == DisabledNone:
		// Trying again cannot help until a person acts: say what to do.
		return fmt.Sprintf("server %q needs a person to sign in: open Switchboard's dashboard and choose Sign in", e.Server)
	case st.Error != "":
		return fmt.Sprintf("server %q is %s: %s", e.Server, st.State, st.Error)
	}
	return fmt.Sprintf("server %q is %s", e.Server, st.State)
}
func (e *NotReadyError) Unwrap() error { return ErrNotConnected }

// reconnecting reports whether a server is on its way to a connection by
// itself: connecting now, or failed with a retry scheduled; not disabled,
// blocked or given up on.
func reconnecting(st Status) bool {
	if st.BlockedReason != BlockedNone || st.DisabledReason != DisabledNone {
		return false
	}
	return st.Phase == PhaseConnecting || (st.Phase == PhaseWaiting && st.Retryable)
}

// AwaitConnected returns once server is connected, waiting while it is
// connecting or waiting for a retry, for at most the time one connection
// attempt may take (startTimeoutSeconds for stdio, connectTimeoutSeconds
// otherwise): an AI client's call to a server that is briefly
// reconnecting then runs instead of failing. It watches the hub, so it
// wakes on the snapshot that says connected. A server that is not
// reconnecting, or still is when the time is up, yields *NotReadyError.
func (f *Fleet) AwaitConnected(ctx context.Context, server string) (Status, error) {
	s, err := f.get(server)
	if err != nil {
		return Status{}, err
	}
	// Subscribing before the first read means no snapshot slips between.
	sub := f.opts.Hub.Subscribe()
	defer sub.Close()
	st, ok := f.opts.Hub.Get(server)
	if !ok {
		return Status{}, fmt.Errorf("server %q: %w", server, ErrNotFound)
	}
	if st.State == StateConnected {
		return st, nil
	}
	if !reconnecting(st) {
		return st, &NotReadyError{Server: server, Status: st}
	}
	limit, _ := s.config().attemptLimit()
	timer := f.opts.Clock.NewTimer(limit)
	defer timer.Stop()
	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var timedOut atomic.Bool
	go func() {
		select {
		case <-timer.C():
			timedOut.Store(true)
			cancel()
		case <-waitCtx.Done():
		}
	}()
	for {
		batch, err := sub.Next(waitCtx)
		if err != nil {
			if timedOut.Load() {
				if now, ok := f.opts.Hub.Get(server); ok {
					st = now
				}
				return st, &NotReadyError{Server: server, Status: st}
			}
			return st, ctx.Err()
		}
		for _, next := range batch {
			if next.ServerName != server {
				continue
			}
			st = next
			if st.State == StateConnected {
				return st, nil
			}
			if st.Phase == PhaseDisposed {
				return st, fmt.Errorf("server %q: %w", server, ErrRemoved)
			}
			if !reconnecting(st) {
				return st, &NotReadyError{Server: server, Status: st}
			}
		}
	}
}
