package domain_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// memApprovals is an in-memory domain.ApprovalStore.
type memApprovals struct {
	mu   sync.Mutex // guards recs
	recs map[string][2]string
}

func (s *memApprovals) Approval(_ context.Context, user, root, server string) (domain.ApprovalDecision, string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recs[user+"|"+root+"|"+server]
	return domain.ApprovalDecision(r[0]), r[1], ok, nil
}

func (s *memApprovals) SaveApproval(_ context.Context, user, root, server, hash string, d domain.ApprovalDecision) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recs[user+"|"+root+"|"+server] = [2]string{string(d), hash}
	return nil
}

// approvalRig is a fleet whose settings hold one project server, "proj",
// gated by a real GateApprovals over an in-memory store.
type approvalRig struct {
	*rig
	load      *scriptedLoad
	store     *memApprovals
	approvals *domain.Approvals
}

func newApprovalRig(t *testing.T) *approvalRig {
	r := &approvalRig{rig: newRig(t, nil), load: &scriptedLoad{}, store: &memApprovals{recs: map[string][2]string{}}}
	gated := func(ctx context.Context) (domain.LoadedConfig, error) {
		cfg, err := r.load.load(ctx)
		if err != nil {
			return cfg, err
		}
		cfg.Servers, err = domain.GateApprovals(ctx, r.store, "local", "/p", nil, cfg.Servers, map[string]bool{"proj": true})
		return cfg, err
	}
	rl := domain.NewReloader(domain.ReloaderOptions{Load: gated, Fleet: r.fleet, Clock: r.clock})
	r.approvals = &domain.Approvals{Store: r.store, Fleet: r.fleet, Reloader: rl, User: "local", ProjectRoot: "/p"}
	return r
}

// set makes proj's entry cfg and reloads, returning the request the
// person now sees.
func (r *approvalRig) set(cfg domain.ServerConfig) *domain.ApprovalRequest {
	r.t.Helper()
	r.load.set(domain.LoadedConfig{Servers: []domain.ServerConfig{cfg}}, nil)
	if _, _, err := r.approvals.Reloader.Reload(context.Background()); err != nil {
		r.t.Fatalf("reload: %v", err)
	}
	st, err := r.fleet.Status("proj")
	if err != nil || st.BlockedReason != domain.BlockedPending || st.Approval == nil {
		r.t.Fatalf("proj: status %+v, %v; want pending with a request", st, err)
	}
	return st.Approval
}

func TestDecideIsBoundToTheConfigShown(t *testing.T) {
	r := newApprovalRig(t)
	shown := r.set(server("proj"))

	edited := server("proj")
	edited.Command, edited.Args = "sh", []string{"-c", "touch PWNED"}
	current := r.set(edited)

	_, err := r.approvals.Decide(context.Background(), "proj", domain.Approved, shown.Fingerprint)
	var changed *domain.ConfigChangedError
	if !errors.As(err, &changed) || !errors.Is(err, domain.ErrConfigChanged) {
		t.Fatalf("approve of a stale config: got %v, want a ConfigChangedError", err)
	}
	if changed.Current.Fingerprint != current.Fingerprint || changed.Current.Written.Command != "sh" {
		t.Errorf("changed error carries %+v, want the current request", changed.Current)
	}
	if st, _ := r.fleet.Status("proj"); st.BlockedReason != domain.BlockedPending {
		t.Errorf("after a refused approve: %s, want still pending", st.BlockedReason)
	}
	if len(r.store.recs) != 0 {
		t.Errorf("a refused decision was stored: %v", r.store.recs)
	}

	if _, err := r.approvals.Decide(context.Background(), "proj", domain.Rejected, ""); !errors.Is(err, domain.ErrFingerprintRequired) {
		t.Errorf("decide without a fingerprint: got %v, want ErrFingerprintRequired", err)
	}

	st, err := r.approvals.Decide(context.Background(), "proj", domain.Approved, current.Fingerprint)
	if err != nil || st.BlockedReason != domain.BlockedNone {
		t.Fatalf("approve of the config shown: %+v, %v", st, err)
	}
	if a := r.conn.Next(t); a.Config.Command != "sh" {
		t.Errorf("connected %q, want the approved config", a.Config.Command)
	}
}

func TestEditingAPendingServerPublishesTheNewRequest(t *testing.T) {
	r := newApprovalRig(t)
	r.set(server("proj"))
	edited := server("proj")
	edited.Env = map[string]string{"NODE_OPTIONS": "--require x.js"} // same command line: Target is unchanged
	r.set(edited)
	got := r.waitFor("proj", "the edited request", func(s domain.Status) bool {
		return s.Approval != nil && s.Approval.Fingerprint == edited.Fingerprint()
	})
	if len(got.Approval.Risks) != 1 || got.Approval.Risks[0].Key != "NODE_OPTIONS" {
		t.Errorf("risks: got %+v, want NODE_OPTIONS flagged", got.Approval.Risks)
	}
}
