package domain_test

import (
	"context"
	"errors"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A blocked server has no supervisor, yet Remove must still delete its
// entry: otherwise an excluded or rejected server can never leave the list.
func TestRemoveBlockedServerEditsFileAndWithdrawsIt(t *testing.T) {
	for _, reason := range []domain.BlockedReason{domain.BlockedExcluded, domain.BlockedNotAllowed, domain.BlockedPending, domain.BlockedRejected} {
		t.Run(string(reason), func(t *testing.T) {
			ed := &recordingEditor{}
			r := newRig(t, func(o *domain.FleetOptions) { o.Editor = ed })
			cfg := server("a")
			cfg.Source = "/tmp/settings.json"
			cfg.Blocked = reason
			if _, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{cfg}); err != nil {
				t.Fatal(err)
			}
			if err := r.fleet.Remove(context.Background(), "a"); err != nil {
				t.Fatalf("Remove of a %s server: %v, want nil", reason, err)
			}
			r.waitPhase("a", domain.PhaseDisposed)
			if len(ed.removed) != 1 || ed.removed[0] != "/tmp/settings.json#a" {
				t.Errorf("editor calls %q, want the entry removed from its file", ed.removed)
			}
			if _, err := r.fleet.Status("a"); !errors.Is(err, domain.ErrRemoved) {
				t.Errorf("Status after Remove = %v, want ErrRemoved", err)
			}
		})
	}
}
