package sqlite

import (
	"slices"
	"testing"
	"time"
)

// Calls made one after another each hand in a final state nobody waits
// for (journaled). Once the oldest write has lingered, the batch takes
// every final state queued since, with the earlier writes of those
// calls, and leaves only the young writes of the call still running: one
// commit per linger, not one per call.
func TestLingeredBatchTakesEveryFinishedCall(t *testing.T) {
	// Young writes are dated ahead, so that no stall of a loaded machine
	// before take reads the clock can age them.
	now := time.Now().Add(time.Hour)
	aged := time.Now().Add(-2 * linger)
	w := &writer{}
	pendingA := &write{key: "a", version: 1, lazy: true, at: aged, inv: []any{}}
	finalA := &write{key: "a", version: 3, lazy: true, at: aged, inv: []any{}, audit: []any{}}
	pendingB := &write{key: "b", version: 4, lazy: true, at: now, inv: []any{}}
	finalB := &write{key: "b", version: 6, lazy: true, at: now, inv: []any{}, audit: []any{}}
	pendingC := &write{key: "c", version: 7, lazy: true, at: now, inv: []any{}}
	runningC := &write{key: "c", version: 8, lazy: true, at: now, inv: []any{}}
	w.queue = []*write{pendingA, finalA, pendingB, finalB, pendingC, runningC}
	w.due = true

	w.mu.Lock()
	batch := w.take()
	kept := slices.Clone(w.queue)
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()

	if want := []*write{pendingA, finalA, pendingB, finalB}; !slices.Equal(batch, want) {
		t.Errorf("batch: got %d writes, want %d (both finished calls, all their writes)", len(batch), len(want))
	}
	if want := []*write{pendingC, runningC}; !slices.Equal(kept, want) {
		t.Errorf("kept: got %d writes, want %d (the running call's)", len(kept), len(want))
	}
}

// The young writes of a call still running stay queued when nothing has
// lingered yet, so its final state can replace them.
func TestYoungWritesOfARunningCallStayQueued(t *testing.T) {
	w := &writer{}
	young := time.Now().Add(time.Hour) // see TestLingeredBatchTakesEveryFinishedCall
	pending := &write{key: "c", version: 1, lazy: true, at: young, inv: []any{}}
	w.queue = []*write{pending}
	w.due = true

	w.mu.Lock()
	batch := w.take()
	kept := len(w.queue)
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()

	if len(batch) != 0 || kept != 1 {
		t.Errorf("got %d taken and %d kept, want 0 and 1", len(batch), kept)
	}
}
