package domain

import (
	"context"
	"fmt"
	"maps"
	"slices"
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
//
// A team's settings may hold thousands of servers of which one changed, so
// a pass walks desired in place: it indexes entries by name (the last
// entry of a name wins), pairs each with its supervisor in one sweep of
// the fleet's map, and compares configs where they lie rather than
// copying them.
func (f *Fleet) Apply(ctx context.Context, desired []ServerConfig) (ApplyResult, error) {
	f.applyMu.Lock()
	defer f.applyMu.Unlock()
	var res ApplyResult
	want := make(map[string]int, len(desired))
	dups := false
	for i := range desired {
		n := len(want)
		want[desired[i].Name] = i
		dups = dups || len(want) == n
	}
	// wanted reports whether desired[i] is the entry its name resolves to.
	wanted := func(i int) bool { return !dups || want[desired[i].Name] == i }

	running := make([]*supervisor, len(desired))
	var gone []string
	f.mu.Lock()
	for name, s := range f.sups {
		if i, ok := want[name]; ok {
			running[i] = s
		} else {
			gone = append(gone, name)
		}
	}
	wasBlocked := maps.Clone(f.blocked)
	f.mu.Unlock()

	for name := range wasBlocked {
		if i, ok := want[name]; !ok || desired[i].Blocked == BlockedNone {
			f.unblock(name, !ok)
			if !ok {
				res.Removed = append(res.Removed, name)
			}
		}
	}
	for i := range desired {
		cfg := &desired[i]
		if cfg.Blocked == BlockedNone || !wanted(i) {
			continue
		}
		if running[i] != nil {
			if err := f.detach(ctx, cfg.Name); err != nil {
				return res, fmt.Errorf("apply: %w", err)
			}
		}
		f.block(*cfg, wasBlocked[cfg.Name])
		res.Blocked = append(res.Blocked, cfg.Name)
	}
	for _, name := range gone {
		if err := f.detach(ctx, name); err != nil {
			return res, fmt.Errorf("apply: %w", err)
		}
		res.Removed = append(res.Removed, name)
	}
	var attach []ServerConfig
	for i := range desired {
		cfg := &desired[i]
		if cfg.Blocked != BlockedNone || !wanted(i) {
			continue
		}
		name := cfg.Name
		s := running[i]
		if s == nil {
			attach = append(attach, *cfg)
			if _, was := wasBlocked[name]; was {
				res.Reconnected = append(res.Reconnected, name) // unblocked: connects now
			} else {
				res.Added = append(res.Added, name)
			}
			continue
		}
		switch sameLaunch, ownDiffer := s.compareFileConfig(cfg); {
		case !sameLaunch:
			if err := f.detach(ctx, name); err != nil {
				return res, fmt.Errorf("apply: %w", err)
			}
			attach = append(attach, *cfg)
			res.Reconnected = append(res.Reconnected, name)
		case ownDiffer:
			if _, err := s.sendCommand(ctx, command{kind: cmdReconfigure, config: *cfg}); err != nil {
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
	// Every blocked server is wanted (the rest were unblocked above), so a
	// wanted name is no longer a removed one.
	for n := range f.removed {
		if _, ok := want[n]; ok {
			delete(f.removed, n)
		}
	}
	f.mu.Unlock()
	for _, l := range [][]string{res.Added, res.Removed, res.Reconnected, res.Updated, res.Unchanged, res.Blocked} {
		slices.Sort(l)
	}
	return res, nil
}

// compareFileConfig reports whether cfg launches the way the supervisor's
// settings-file entry does, and whether the two differ in Switchboard's own
// keys, comparing under the supervisor's mutex instead of copying the entry.
func (s *supervisor) compareFileConfig(cfg *ServerConfig) (sameLaunch, ownDiffer bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fileCfg.sameLaunch(cfg), ownKeysDiffer(&s.fileCfg, cfg)
}

// ownKeysDiffer reports whether a and b differ in anything but their
// connection: Switchboard's own keys or the file they came from.
func ownKeysDiffer(a, b *ServerConfig) bool {
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
