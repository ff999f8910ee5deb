package domain

import (
	"context"
	"fmt"
	"time"
)

// ErrorCodeInterrupted marks a call that ended because the Switchboard
// process running it stopped (killed, crashed, power cut) before the
// server answered: nobody can ever learn its outcome, so it is an error.
const ErrorCodeInterrupted = "interrupted"

// InterruptedMessage is the Error of an interrupted call. Views translate
// the code; this is for the API, the logs and readers of the database.
const InterruptedMessage = "Switchboard stopped during this call"

// Interruption selects the unfinished invocations to end as interrupted.
// The store never ends a call that another live Switchboard process (one
// sharing the database) is running, whatever the selection.
type Interruption struct {
	Scope *Scope // nil selects every scope
	ID    string // empty selects every invocation of the scope(s)
	// IncludeOwn also ends this process's own unfinished calls. Only a
	// caller that knows none of them is in flight may set it.
	IncludeOwn bool
	EndedAt    time.Time
}

// Recover ends every call that a previous Switchboard process left
// pending or running, in every scope of the store (that process may have
// served another project): none of them can still finish, and until
// ended they would show as running forever, refuse retention and have no
// audit row. Run it once at start, before any call is made.
func (s *Invocations) Recover(ctx context.Context) ([]Invocation, error) {
	ended, err := s.opts.Store.InterruptOrphans(ctx, Interruption{EndedAt: s.opts.Clock.Now()})
	if err != nil {
		return nil, fmt.Errorf("recover interrupted calls: %w", err)
	}
	return ended, nil
}

// interruptOrphan ends one stored call that no goroutine of this process
// runs, so that cancelling it does what the person asked instead of
// answering with a call that stays running forever. A call that another
// live process runs, or that finished meanwhile, is returned as stored.
func (s *Invocations) interruptOrphan(ctx context.Context, scope Scope, id string) (Invocation, error) {
	ended, err := s.opts.Store.InterruptOrphans(ctx, Interruption{
		Scope: &scope, ID: id, IncludeOwn: true, EndedAt: s.opts.Clock.Now(),
	})
	if err != nil {
		return Invocation{}, fmt.Errorf("cancel invocation %s: %w", id, err)
	}
	if len(ended) == 0 {
		return s.opts.Store.Invocation(ctx, scope, id)
	}
	// The stored version may come from an earlier process, whose versions
	// are unrelated to this feed's; publishing above it makes every open
	// page, which remembers the stored version, take the change.
	inv := s.opts.Feed.publishAbove(ended[0], ended[0].Version)
	if err := s.opts.Store.SaveInvocation(ctx, inv); err != nil {
		return Invocation{}, fmt.Errorf("cancel invocation %s: %w", id, err)
	}
	s.opts.Log.Info("tool call finished", "server", inv.ServerName, "tool", inv.Tool, "invocation", inv.ID,
		"status", string(inv.Status), "error_code", inv.ErrorCode)
	return inv, nil
}
