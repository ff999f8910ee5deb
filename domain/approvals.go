package domain

import (
	"context"
	"fmt"
)

// ApprovalDecision is a person's answer about a project server.
type ApprovalDecision string

const (
	Approved ApprovalDecision = "approved"
	Rejected ApprovalDecision = "rejected"
)

// ScopeProject marks a server defined by the project (.mcp.json) rather
// than by the user: it is gated behind approval.
const ScopeProject = "project"

// ApprovalStore keeps decisions per user, bound to the project root, the
// server name and the hash of its config: a changed config is a new
// question. Records outlive the server's entry, so re-adding it unchanged
// keeps the answer.
type ApprovalStore interface {
	Approval(ctx context.Context, user, projectRoot, server string) (decision ApprovalDecision, configHash string, found bool, err error)
	SaveApproval(ctx context.Context, user, projectRoot, server, configHash string, d ApprovalDecision) error
}

// GateApprovals blocks every project server without an approval for its
// current config: no record or another hash -> pending, a rejection of
// this hash -> rejected. User-scope servers pass untouched.
func GateApprovals(ctx context.Context, store ApprovalStore, user, projectRoot string, resolve PathResolver, cfgs []ServerConfig, projectServers map[string]bool) ([]ServerConfig, error) {
	out := make([]ServerConfig, len(cfgs))
	for i, c := range cfgs {
		out[i] = c
		if !projectServers[c.Name] || c.Blocked != BlockedNone {
			continue
		}
		d, hash, found, err := store.Approval(ctx, user, projectRoot, c.Name)
		if err != nil {
			return nil, fmt.Errorf("approval of %s: %w", c.Name, err)
		}
		switch {
		case !found || hash != c.Fingerprint():
			out[i].Blocked = BlockedPending
		case d == Rejected:
			out[i].Blocked = BlockedRejected
		default:
			continue
		}
		out[i].Approval = NewApprovalRequest(c, projectRoot, resolve)
	}
	return out, nil
}

// Approvals records a person's decision about a pending project server and
// reloads, so an approved server connects at once.
type Approvals struct {
	Store       ApprovalStore
	Fleet       *Fleet
	Reloader    *Reloader
	User        string
	ProjectRoot string
	// Resolve says where a working directory leads on disk, for the
	// request shown again after a refused decision.
	Resolve PathResolver
}

// Decide answers the question about name's config as it was shown: shown
// is the Fingerprint of the ApprovalRequest the person saw. When the
// config changed since, nothing is decided and a *ConfigChangedError
// carries the current request, so what runs is always what was shown. The
// decision is saved for the shown fingerprint, so an edit racing it leaves
// the new config pending.
func (a *Approvals) Decide(ctx context.Context, name string, d ApprovalDecision, shown string) (Status, error) {
	cfg, ok := a.Fleet.blockedConfig(name)
	if !ok || (cfg.Blocked != BlockedPending && cfg.Blocked != BlockedRejected) {
		if _, err := a.Fleet.get(name); err != nil && !isBlocked(err) {
			return Status{}, err
		}
		return Status{}, fmt.Errorf("%s %s: %w", d, name, ErrNothingToApprove)
	}
	if shown == "" {
		return Status{}, fmt.Errorf("%s %s: %w", d, name, ErrFingerprintRequired)
	}
	if shown != cfg.Fingerprint() {
		current := cfg.Approval
		if current == nil {
			current = NewApprovalRequest(cfg, a.ProjectRoot, a.Resolve)
		}
		return Status{}, &ConfigChangedError{Server: name, Shown: shown, Current: current}
	}
	if err := a.Store.SaveApproval(ctx, a.User, a.ProjectRoot, name, shown, d); err != nil {
		return Status{}, fmt.Errorf("%s %s: %w", d, name, err)
	}
	if _, _, err := a.Reloader.Reload(ctx); err != nil {
		return Status{}, err
	}
	return a.Fleet.Status(name)
}

// ConfigChangedError refuses a decision about a config that is no longer
// the server's: the file (or an environment variable it reads) changed
// after the person saw it. Current is what to show instead.
type ConfigChangedError struct {
	Server  string
	Shown   string
	Current *ApprovalRequest
}

func (e *ConfigChangedError) Error() string {
	return fmt.Sprintf("decide %s: %s", e.Server, ErrConfigChanged)
}

// Is makes errors.Is(err, ErrConfigChanged) hold.
func (e *ConfigChangedError) Is(target error) bool { return target == ErrConfigChanged }

func isBlocked(err error) bool {
	_, ok := err.(*BlockedError)
	return ok
}

// blockedConfig returns a blocked server's config.
func (f *Fleet) blockedConfig(name string) (ServerConfig, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.blocked[name]
	return c, ok
}
