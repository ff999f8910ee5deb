package domain

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// StateChange is one transition of a server as the hub saw it: what the
// chip showed from At on. Error is the snapshot's redacted error, so it
// may be shown to anyone who may see the server. A change to
// PhaseDisposed ends what is known until the next change: Switchboard
// stopped, or the server was removed.
type StateChange struct {
	Server string
	At     time.Time
	State  State
	Phase  Phase
	Error  string
}

// ProbeSample is how long one keep-alive probe of a server took.
type ProbeSample struct {
	Server  string
	At      time.Time
	Latency time.Duration
}

// HistoryStore keeps servers' state changes and probe samples per scope.
// The sqlite adapter implements it.
type HistoryStore interface {
	// AppendHistory stores changes and samples, all or none.
	AppendHistory(ctx context.Context, scope Scope, changes []StateChange, samples []ProbeSample) error
	// StateChanges lists server's changes at or after since, oldest
	// first, preceded by the newest change before since.
	StateChanges(ctx context.Context, scope Scope, server string, since time.Time) ([]StateChange, error)
	// ProbeSamples lists the newest limit samples of server at or after
	// since, oldest first.
	ProbeSamples(ctx context.Context, scope Scope, server string, since time.Time, limit int) ([]ProbeSample, error)
	// RecentProbes lists the newest perServer samples of every server of
	// the scope, oldest first.
	RecentProbes(ctx context.Context, scope Scope, perServer int) ([]ProbeSample, error)
	// PruneHistoryBefore deletes samples and changes older than t, but
	// keeps each server's newest change before t (the state it was in at
	// t) unless that change disposed of the server.
	PruneHistoryBefore(ctx context.Context, t time.Time) (int64, error)
}

// History defaults.
const (
	// RecentProbeCount is how many probe samples per server RecentProbes
	// keeps in memory: enough for a tooltip's sparkline.
	RecentProbeCount = 20
	// DefaultHistoryQueue bounds the changes and samples waiting for the
	// database, so a stuck disk costs memory only up to a point.
	DefaultHistoryQueue = 10000
	// DefaultProbeSampleLimit is ProbeSamples' limit when it is given none.
	DefaultProbeSampleLimit = 1000
	// MaxHistoryError bounds the error text a state change keeps.
	MaxHistoryError = 2000
)

// HistoryOptions configure a History.
type HistoryOptions struct {
	Store HistoryStore // required
	Scope Scope        // whose servers these are
	Clock Clock        // stamps state changes; nil is the system clock
	Log   *slog.Logger // nil discards
	// QueueLimit bounds what waits to be written; 0 means
	// DefaultHistoryQueue.
	QueueLimit int
}

// History records every server's state changes and probe samples from
// the hub into a store, for the uptime strip and the latency sparklines.
// It observes every snapshot rather than subscribing, because a
// subscription skips snapshots and a skipped snapshot may be a
// transition; the observer only compares and queues, and one goroutine
// writes the queue in batches.
type History struct {
	opts HistoryOptions

	mu       sync.Mutex // guards every field below
	last     map[string]seenStatus
	recent   map[string][]ProbeSample
	changes  []StateChange
	samples  []ProbeSample
	queued   uint64        // entries ever queued
	written  uint64        // entries ever taken off the queue and handled
	progress chan struct{} // closed and replaced whenever written grows
	dropped  uint64        // entries refused because the queue was full
	subs     map[*HistorySubscription]struct{}
	stop     func() // detaches from the hub; nil before Record
	closed   bool

	wake chan struct{} // holds a token when the queue has entries or Close was called
	done chan struct{} // closed when the writer ends
}

// seenStatus is what the observer remembers of a server's last snapshot.
type seenStatus struct {
	state    State
	phase    Phase
	err      string
	probedAt time.Time
}

// NewHistory returns a History with each server's recent probe samples
// loaded from the store, so tooltips show them right after a restart.
func NewHistory(ctx context.Context, opts HistoryOptions) (*History, error) {
	if opts.Store == nil {
		panic("domain: HistoryOptions.Store is nil")
	}
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.QueueLimit <= 0 {
		opts.QueueLimit = DefaultHistoryQueue
	}
	h := &History{
		opts:     opts,
		last:     map[string]seenStatus{},
		recent:   map[string][]ProbeSample{},
		progress: make(chan struct{}),
		subs:     map[*HistorySubscription]struct{}{},
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
	}
	recent, err := opts.Store.RecentProbes(ctx, opts.Scope, RecentProbeCount)
	if err != nil {
		return nil, fmt.Errorf("load recent probe samples: %w", err)
	}
	for _, p := range recent {
		h.recent[p.Server] = append(h.recent[p.Server], p)
	}
	return h, nil
}

// StateChanges returns server's state changes at or after since, oldest
// first, preceded by the last change before since: the state the window
// starts in.
func (h *History) StateChanges(ctx context.Context, server string, since time.Time) ([]StateChange, error) {
	if err := h.flush(ctx); err != nil {
		return nil, fmt.Errorf("state changes of %s: %w", server, err)
	}
	out, err := h.opts.Store.StateChanges(ctx, h.opts.Scope, server, since)
	if err != nil {
		return nil, fmt.Errorf("state changes of %s: %w", server, err)
	}
	return out, nil
}

// ProbeSamples returns the newest limit probe samples of server at or
// after since, oldest first; a limit of 0 or less is
// DefaultProbeSampleLimit.
func (h *History) ProbeSamples(ctx context.Context, server string, since time.Time, limit int) ([]ProbeSample, error) {
	if limit <= 0 {
		limit = DefaultProbeSampleLimit
	}
	if err := h.flush(ctx); err != nil {
		return nil, fmt.Errorf("probe samples of %s: %w", server, err)
	}
	out, err := h.opts.Store.ProbeSamples(ctx, h.opts.Scope, server, since, limit)
	if err != nil {
		return nil, fmt.Errorf("probe samples of %s: %w", server, err)
	}
	return out, nil
}

// RecentProbes returns server's last RecentProbeCount probe samples,
// oldest first, from memory: cheap enough for every tooltip.
func (h *History) RecentProbes(server string) []ProbeSample {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]ProbeSample(nil), h.recent[server]...)
}

// Dropped returns how many changes and samples were lost because the
// queue was full.
func (h *History) Dropped() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dropped
}

// Prune deletes history older than retention, keeping the state each
// server was in at the cut.
func (h *History) Prune(ctx context.Context, retention time.Duration) (int64, error) {
	n, err := h.opts.Store.PruneHistoryBefore(ctx, h.opts.Clock.Now().Add(-retention))
	if err != nil {
		return 0, fmt.Errorf("prune server history: %w", err)
	}
	return n, nil
}

// Close stops recording and writes what is queued; call it after the
// fleet has closed, so servers' last states are kept, and before the
// store closes.
func (h *History) Close(ctx context.Context) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	stop := h.stop
	h.mu.Unlock()
	if stop == nil {
		return nil // never recorded: no writer runs
	}
	stop()
	select {
	case h.wake <- struct{}{}:
	default:
	}
	select {
	case <-h.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("write the last server history: %w", ctx.Err())
	}
}
