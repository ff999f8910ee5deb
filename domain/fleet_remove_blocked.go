package domain

import (
	"context"
	"fmt"
)

// removeBlocked removes a server that gating or approval keeps away: it
// has no process to stop, but a person must still be able to delete its
// entry, or a server they never want is stuck in the list. The caller
// holds applyMu, so no reconciliation re-blocks it halfway.
func (f *Fleet) removeBlocked(ctx context.Context, name string) error {
	cfg, ok := f.blockedConfig(name)
	if !ok {
		return fmt.Errorf("server %q: %w", name, ErrNotFound)
	}
	if cfg.Source != "" && f.opts.Editor != nil {
		if err := f.opts.Editor.RemoveServer(ctx, cfg.Source, name); err != nil {
			return fmt.Errorf("remove %s: %w", name, err)
		}
	}
	f.unblock(name, true)
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
