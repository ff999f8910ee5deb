package domain

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// FleetOptions configures a Fleet: the supervisor options shared by every
// server, plus the settings editor used by Remove.
type FleetOptions struct {
	SupervisorOptions
	Editor SettingsEditor // nil: Remove only forgets the server
}

// Fleet is every supervised server of one scope. It is the API the
// handlers call: attach, restart, disable, enable, remove, read.
type Fleet struct {
	opts    FleetOptions
	applyMu sync.Mutex // serializes Apply and Remove, so a removal never races a reconciliation
	mu      sync.Mutex // guards sups, blocked and closed
	sups    map[string]*supervisor
	blocked map[string]ServerConfig // configured but kept away (gating, approval): no supervisor, no process
	removed map[string]bool         // left the settings since start, so a lookup can say so
	closed  bool
}

// NewFleet returns an empty fleet.
func NewFleet(opts FleetOptions) *Fleet {
	opts.SupervisorOptions = opts.SupervisorOptions.withDefaults()
	return &Fleet{opts: opts, sups: map[string]*supervisor{}, blocked: map[string]ServerConfig{}, removed: map[string]bool{}}
}

// Hub returns the hub every supervisor of the fleet reports to.
func (f *Fleet) Hub() *Hub { return f.opts.Hub }

// Attach starts supervising every server in cfgs that is not supervised
// yet, restoring what the store remembers (a disabled server stays
// disabled across restarts).
func (f *Fleet) Attach(ctx context.Context, cfgs []ServerConfig) error {
	records := map[string]ServerRecord{}
	if f.opts.Store != nil && len(cfgs) > 0 { // most reloads attach nothing: skip reading every record
		var err error
		if records, err = f.opts.Store.ServerRecords(ctx, f.opts.Scope); err != nil {
			return fmt.Errorf("attach: load server records: %w", err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return ErrClosed
	}
	for _, cfg := range cfgs {
		if _, ok := f.sups[cfg.Name]; ok {
			continue
		}
		var rec *ServerRecord
		if r, ok := records[cfg.Name]; ok {
			rec = &r
		}
		f.sups[cfg.Name] = startSupervisor(f.opts.SupervisorOptions, cfg, rec)
	}
	return nil
}

// Names returns the supervised server names, sorted.
func (f *Fleet) Names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	names := make([]string, 0, len(f.sups))
	for n := range f.sups {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (f *Fleet) get(name string) (*supervisor, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sups[name]
	if b, blocked := f.blocked[name]; !ok && blocked {
		return nil, &BlockedError{Server: name, Reason: b.Blocked}
	}
	if !ok && f.removed[name] {
		return nil, fmt.Errorf("server %q: %w", name, ErrRemoved)
	}
	if !ok {
		return nil, fmt.Errorf("server %q: %w", name, ErrNotFound)
	}
	return s, nil
}

// Status returns the newest snapshot of one server.
func (f *Fleet) Status(name string) (Status, error) {
	if _, err := f.get(name); err != nil && !errors.Is(err, ErrBlocked) {
		return Status{}, err
	}
	st, ok := f.opts.Hub.Get(name)
	if !ok {
		return Status{}, fmt.Errorf("server %q: %w", name, ErrNotFound)
	}
	return st, nil
}

// Restart disconnects gracefully and attaches again.
func (f *Fleet) Restart(ctx context.Context, name string) (Status, error) {
	return f.command(ctx, name, cmdRestart)
}

// Disable stops the server and every retry; it stays disabled across restarts.
func (f *Fleet) Disable(ctx context.Context, name string) (Status, error) {
	return f.command(ctx, name, cmdDisable)
}

// Enable lifts a manual or automatic disable and connects.
func (f *Fleet) Enable(ctx context.Context, name string) (Status, error) {
	return f.command(ctx, name, cmdEnable)
}

// UpdateSettings applies and stores a person's settings for one server,
// without reconnecting it.
func (f *Fleet) UpdateSettings(ctx context.Context, name string, o SettingsOverride) (Status, error) {
	if err := o.Validate(); err != nil {
		return Status{}, fmt.Errorf("settings of %s: %w", name, err)
	}
	s, err := f.get(name)
	if err != nil {
		return Status{}, err
	}
	return s.sendCommand(ctx, command{kind: cmdSettings, settings: o})
}

// command waits for any reconciliation in progress, so a person's restart
// or disable racing a settings reload is applied to the server the reload
// left, never lost on one it replaced.
func (f *Fleet) command(ctx context.Context, name string, kind commandKind) (Status, error) {
	f.applyMu.Lock()
	defer f.applyMu.Unlock()
	s, err := f.get(name)
	if err != nil {
		return Status{}, err
	}
	return s.send(ctx, kind)
}

// Capabilities returns the last lists loaded from the server; they stay
// available while it is disconnected or disabled.
func (f *Fleet) Capabilities(name string) (Capabilities, error) {
	s, err := f.get(name)
	if err != nil {
		return Capabilities{}, err
	}
	return s.capabilities(), nil
}

// Stderr returns the server's recent stderr lines, newest last, redacted.
func (f *Fleet) Stderr(name string) ([]string, error) {
	s, err := f.get(name)
	if err != nil {
		return nil, err
	}
	return s.config().Redactor().RedactAll(s.stderr.Lines()), nil
}

// Remove disconnects the server, deletes its entry from the settings file
// it came from and purges its stored state. The file is edited first so
// that a failure there leaves everything as it was.
func (f *Fleet) Remove(ctx context.Context, name string) error {
	f.applyMu.Lock()
	defer f.applyMu.Unlock()
	s, err := f.get(name)
	if isBlocked(err) {
		return f.removeBlocked(ctx, name)
	}
	if err != nil {
		return err
	}
	cfg := s.config()
	if cfg.Source != "" && f.opts.Editor != nil {
		if err := f.opts.Editor.RemoveServer(ctx, cfg.Source, name); err != nil {
			return fmt.Errorf("remove %s: %w", name, err)
		}
	}
	if err := f.detach(ctx, name); err != nil {
		return err
	}
	f.mu.Lock()
	f.removed[name] = true
	f.mu.Unlock()
	if f.opts.Store != nil {
		if err := f.opts.Store.PurgeServer(ctx, f.opts.Scope, name); err != nil {
			return fmt.Errorf("remove %s: %w", name, err)
		}
	}
	return nil
}

// detach disposes one supervisor and waits until its process is gone.
func (f *Fleet) detach(ctx context.Context, name string) error {
	f.mu.Lock()
	s, ok := f.sups[name]
	delete(f.sups, name)
	f.mu.Unlock()
	if !ok {
		return fmt.Errorf("server %q: %w", name, ErrNotFound)
	}
	// Out of the map nobody else can reach s, so the dispose must not be
	// abandoned; only the wait for its process below honours ctx.
	if _, err := s.send(context.WithoutCancel(ctx), cmdDispose); err != nil {
		return fmt.Errorf("detach %s: %w", name, err)
	}
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("detach %s: %w", name, ctx.Err())
	}
}

// Close disposes every supervisor and waits for their processes to end or
// ctx to expire.
func (f *Fleet) Close(ctx context.Context) error {
	f.mu.Lock()
	f.closed = true
	names := make([]string, 0, len(f.sups))
	for n := range f.sups {
		names = append(names, n)
	}
	f.mu.Unlock()
	var wg sync.WaitGroup
	errs := make([]error, len(names))
	for i, n := range names {
		wg.Go(func() { errs[i] = f.detach(ctx, n) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// AuthChanged tells the fleet that a server's sign-in changed (a sign-in
// completed or was given up, tokens were refreshed, failed to refresh or
// were signed out), so its status is published again with the new
// AuthStatus. A server waiting for a sign-in that is now signed in
// connects at once; a connected server that was signed out reconnects, so
// that it reports what it needs.
//
// It returns at once and takes none of the fleet's locks on the caller's
// goroutine: the auth source may call it while holding the lock its
// AuthStatus takes, which a supervisor publishing under the fleet's lock
// (Attach) waits for.
func (f *Fleet) AuthChanged(name string) {
	if f == nil {
		return // a change told before the fleet exists: it reads the state when it starts
	}
	go func() {
		f.mu.Lock()
		s, ok := f.sups[name]
		f.mu.Unlock()
		if ok {
			s.nudgeAuth()
		}
	}()
}
