package domain

import (
	"context"
	"fmt"
	"sort"
)

// ApplyResult says what a reconciliation did, by server name.
type ApplyResult struct {
	Added       []string // new: connecting
	Removed     []string // gone from the settings: disconnected, lists dropped
	Reconnected []string // connection settings changed: reconnected with the new config
	Updated     []string // only Switchboard's own keys changed: applied in place
	Unchanged   []string // untouched: same connection, same connectedAt
	Blocked     []string // kept away by gating or approval: no process, no request
}

// Apply makes the fleet match desired, touching only what changed: a new
// server connects, a removed one disconnects, one whose Fingerprint
// changed reconnects with its new config, and one that only changed
// Switchboard's own keys (keep-alive, timeouts, auto-reconnect) takes them
// without reconnecting. Everything else keeps running as it was — no
// "0 tools" gap, no flicker. Reconciliations and removals are serialized.
func (f *Fleet) Apply(ctx context.Context, desired []ServerConfig) (ApplyResult, error) {
	f.applyMu.Lock()
	defer f.applyMu.Unlock()
	var res ApplyResult
	want := make(map[string]ServerConfig, len(desired))
	for _, c := range desired {
		want[c.Name] = c
	}
	f.mu.Lock()
	current := make(map[string]*supervisor, len(f.sups))
	for n, s := range f.sups {
		current[n] = s
	}
	f.mu.Unlock()

	f.mu.Lock()
	wasBlocked := make(map[string]ServerConfig, len(f.blocked))
	for n, c := range f.blocked {
		wasBlocked[n] = c
	}
	f.mu.Unlock()
	for name := range wasBlocked {
		if c, ok := want[name]; !ok || c.Blocked == BlockedNone {
			f.unblock(name, !ok)
			if !ok {
				res.Removed = append(res.Removed, name)
			}
		}
	}

	var attach []ServerConfig
	for name, cfg := range want {
		if cfg.Blocked == BlockedNone {
			continue
		}
		if _, running := current[name]; running {
			if err := f.detach(ctx, name); err != nil {
				return res, fmt.Errorf("apply: %w", err)
			}
			delete(current, name)
		}
		f.block(cfg, wasBlocked[name])
		res.Blocked = append(res.Blocked, name)
		delete(want, name)
	}
	for name := range current {
		if _, ok := want[name]; !ok {
			if err := f.detach(ctx, name); err != nil {
				return res, fmt.Errorf("apply: %w", err)
			}
			res.Removed = append(res.Removed, name)
		}
	}
	for name, cfg := range want {
		s, ok := current[name]
		switch {
		case !ok:
			attach = append(attach, cfg)
			res.Added = append(res.Added, name)
			if _, was := wasBlocked[name]; was {
				res.Added = res.Added[:len(res.Added)-1]
				res.Reconnected = append(res.Reconnected, name) // unblocked: connects now
			}
		case !s.fileConfig().SameLaunch(cfg):
			if err := f.detach(ctx, name); err != nil {
				return res, fmt.Errorf("apply: %w", err)
			}
			attach = append(attach, cfg)
			res.Reconnected = append(res.Reconnected, name)
		case ownKeysDiffer(s.fileConfig(), cfg):
			if _, err := s.sendCommand(ctx, command{kind: cmdReconfigure, config: cfg}); err != nil {
				return res, fmt.Errorf("apply %s: %w", name, err)
			}
			res.Updated = append(res.Updated, name)
		default:
			res.Unchanged = append(res.Unchanged, name)
		}
	}
	if err := f.Attach(ctx, attach); err != nil {
		return res, fmt.Errorf("apply: %w", err)
	}
	f.mu.Lock()
	for _, n := range res.Removed {
		f.removed[n] = true
	}
	for n := range want {
		delete(f.removed, n)
	}
	for n := range f.blocked {
		delete(f.removed, n)
	}
	f.mu.Unlock()
	for _, l := range [][]string{res.Added, res.Removed, res.Reconnected, res.Updated, res.Unchanged, res.Blocked} {
		sort.Strings(l)
	}
	return res, nil
}

// ownKeysDiffer reports whether a and b differ in anything but their
// connection: Switchboard's own keys or the file they came from.
func ownKeysDiffer(a, b ServerConfig) bool {
	return a.AutoReconnect != b.AutoReconnect || a.KeepAlive != b.KeepAlive || a.ConnectTimeout != b.ConnectTimeout ||
		a.StartTimeout != b.StartTimeout || a.CallTimeout != b.CallTimeout || a.Disabled != b.Disabled || a.Source != b.Source
}

// fileConfigOf returns a supervised server's settings-file entry.
func (f *Fleet) fileConfigOf(name string) (ServerConfig, bool) {
	s, err := f.get(name)
	if err != nil {
		return ServerConfig{}, false
	}
	return s.fileConfig(), true
}

// block records cfg as kept away and publishes why, unless nothing about
// it changed since the last pass.
func (f *Fleet) block(cfg ServerConfig, before ServerConfig) {
	f.mu.Lock()
	f.blocked[cfg.Name] = cfg
	f.mu.Unlock()
	if before.Name != "" && before.Blocked == cfg.Blocked && before.SameLaunch(cfg) && before.Source == cfg.Source {
		return
	}
	st := Status{ServerName: cfg.Name, Source: cfg.Source, Transport: cfg.Transport, Target: cfg.Target(), WorkDir: cfg.WorkDir(),
		Phase: PhaseStopped, BlockedReason: cfg.Blocked, Approval: cfg.Approval, AutoReconnect: cfg.AutoReconnect, KeepAlive: cfg.KeepAlive}
	st.State = StateDisabled
	f.opts.Hub.Publish(st)
}

// unblock forgets a blocked server; gone says it left the settings, so
// its status is withdrawn too (an unblocked one is replaced by its
// supervisor's first snapshot).
func (f *Fleet) unblock(name string, gone bool) {
	f.mu.Lock()
	cfg := f.blocked[name]
	delete(f.blocked, name)
	f.mu.Unlock()
	if gone {
		f.opts.Hub.Publish(Status{ServerName: name, Source: cfg.Source, Phase: PhaseDisposed, State: StateDisabled})
	}
}
