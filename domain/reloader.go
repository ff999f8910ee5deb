package domain

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"
)

// ConfigSource is one settings file and the servers it defines.
type ConfigSource struct {
	Path    string
	Scope   string // "user" (the settings file) or "project"
	Servers []string
}

// LoadedConfig is what a load of every settings source found.
type LoadedConfig struct {
	Servers  []ServerConfig
	Sources  []ConfigSource
	Problems []*SettingsError // bad entries, skipped
	// Demo says the settings file does not exist yet and the built-in
	// demo servers run in its place.
	Demo bool
}

// ConfigState is what the last reload saw, for the API and the banner.
type ConfigState struct {
	Sources      []ConfigSource
	LastReloadAt time.Time
	// Error is why the newest edit was not (wholly) applied; nil when the
	// running configuration is the file's.
	Error   *SettingsError
	Version uint64
	// Demo says the built-in demo servers run because there is no
	// settings file yet; creating it ends the demo.
	Demo bool
}

// ReloaderOptions wires a Reloader.
type ReloaderOptions struct {
	Load  func(ctx context.Context) (LoadedConfig, error)
	Fleet *Fleet
	Clock Clock
	Log   *slog.Logger
}

// Reloader applies edits of the settings to the running fleet. Passes
// never overlap: changes that arrive during one coalesce into exactly one
// more. An unreadable or invalid file keeps the last good configuration
// running and says why until a good save clears it.
type Reloader struct {
	opts   ReloaderOptions
	passMu sync.Mutex // serializes passes

	// applied is the last load that reached the fleet, so a save that
	// parses to the same thing (reformatting, reordered keys, this
	// program's own write) changes nothing, not even the state. Guarded
	// by passMu.
	applied *LoadedConfig

	mu      sync.Mutex // guards state, dirty, looping and subs
	state   ConfigState
	dirty   bool
	looping bool
	subs    map[chan struct{}]struct{} // each holds a token after a state change
}

// NewReloader returns a reloader; nothing runs until Trigger or Reload.
func NewReloader(opts ReloaderOptions) *Reloader {
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Reloader{opts: opts, subs: map[chan struct{}]struct{}{}}
}

// Trigger asks for a pass without waiting for it. Calls during a pass
// coalesce into one more pass after it.
func (r *Reloader) Trigger() {
	r.mu.Lock()
	r.dirty = true
	if r.looping {
		r.mu.Unlock()
		return
	}
	r.looping = true
	r.mu.Unlock()
	go r.loop()
}

func (r *Reloader) loop() {
	for {
		r.mu.Lock()
		if !r.dirty {
			r.looping = false
			r.mu.Unlock()
			return
		}
		r.dirty = false
		r.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		if _, _, err := r.Reload(ctx); err != nil {
			r.opts.Log.Warn("settings reload", "error", err)
		}
		cancel()
	}
}

// Reload runs one pass now and returns the new state and what changed.
// A settings error is reported in the state, not as the error.
func (r *Reloader) Reload(ctx context.Context) (ConfigState, ApplyResult, error) {
	r.passMu.Lock()
	defer r.passMu.Unlock()
	loaded, err := r.opts.Load(ctx)
	if err != nil {
		var se *SettingsError
		if !errors.As(err, &se) {
			se = &SettingsError{Message: err.Error()}
		}
		r.opts.Log.Warn("settings not applied; the last good configuration keeps running", "error", se)
		return r.update(func(s *ConfigState) { s.Error = se }), ApplyResult{}, nil
	}
	desired := loaded.Servers
	for _, p := range loaded.Problems {
		// A bad edit of one entry keeps that server's last good config.
		if cfg, ok := r.opts.Fleet.fileConfigOf(p.Server); ok && p.Server != "" {
			desired = append(desired, cfg)
		}
	}
	res, err := r.opts.Fleet.Apply(ctx, desired)
	if err != nil {
		return r.State(), res, err
	}
	// The state still shows the applied load unless a failed load since
	// put its error there, which this good one must clear.
	if r.applied != nil && sameLoad(*r.applied, loaded) && r.State().Error == firstProblem(*r.applied) {
		return r.State(), res, nil
	}
	r.applied = &loaded
	now := r.opts.Clock.Now()
	st := r.update(func(s *ConfigState) {
		s.Sources = loaded.Sources
		s.LastReloadAt = now
		s.Error = firstProblem(loaded)
		s.Demo = loaded.Demo
	})
	if n := len(res.Added) + len(res.Removed) + len(res.Reconnected) + len(res.Updated); n > 0 {
		r.opts.Log.Info("settings reloaded", "added", res.Added, "removed", res.Removed,
			"reconnected", res.Reconnected, "updated", res.Updated, "unchanged", len(res.Unchanged))
	}
	return st, res, nil
}

func (r *Reloader) update(f func(*ConfigState)) ConfigState {
	r.mu.Lock()
	f(&r.state)
	r.state.Version++
	st := r.state
	for ch := range r.subs {
		select {
		case ch <- struct{}{}:
		default: // a token is already waiting; the reader will see the newest state
		}
	}
	r.mu.Unlock()
	return st
}

// State returns what the last pass saw.
func (r *Reloader) State() ConfigState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state
}

// Subscribe returns a channel signalled after every state change (read
// State then) and the function that ends the subscription. A slow reader
// skips intermediate states but never misses the newest.
func (r *Reloader) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	r.mu.Lock()
	r.subs[ch] = struct{}{}
	r.mu.Unlock()
	return ch, func() {
		r.mu.Lock()
		delete(r.subs, ch)
		r.mu.Unlock()
	}
}
