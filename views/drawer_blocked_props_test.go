package views_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestNewDrawerBlockedProps(t *testing.T) {
	urls := views.DrawerURLs{Approve: "/approve", Reject: "/reject"}
	req := &domain.ApprovalRequest{Fingerprint: "fp", Transport: domain.TransportStdio, Written: domain.RawConfig{Command: "npx"}}
	tests := []struct {
		name             string
		in               domain.Status
		show             bool
		why, wayOut      string
		approve, reject  string
		config           bool
		removeMentionsIt bool
	}{
		{"not blocked shows nothing",
			domain.Status{ServerName: "a", State: domain.StateConnected},
			false, "", "", "", "", false, false},
		{"excluded names the settings key",
			domain.Status{ServerName: "a", State: domain.StateDisabled, BlockedReason: domain.BlockedExcluded, Source: "/s.json"},
			true, "DrawerBlockedExcluded", "DrawerWayOutExcluded", "", "", false, true},
		{"not allowed names the key and the flag",
			domain.Status{ServerName: "a", State: domain.StateDisabled, BlockedReason: domain.BlockedNotAllowed},
			true, "DrawerBlockedNotAllowed", "DrawerWayOutNotAllowed", "", "", false, false},
		{"pending offers approve and reject with the config",
			domain.Status{ServerName: "a", State: domain.StateDisabled, BlockedReason: domain.BlockedPending, Approval: req, Source: "/p/.mcp.json"},
			true, "DrawerBlockedPending", "DrawerWayOutPending", "/approve", "/reject", true, true},
		{"rejected offers approve only",
			domain.Status{ServerName: "a", State: domain.StateDisabled, BlockedReason: domain.BlockedRejected, Approval: req, Source: "/p/.mcp.json"},
			true, "DrawerBlockedRejected", "DrawerWayOutRejected", "/approve", "", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := views.NewDrawerBlockedProps(tt.in, urls)
			if p.ID != views.DrawerBlockedID("a") {
				t.Errorf("ID: got %q, want %q", p.ID, views.DrawerBlockedID("a"))
			}
			if p.Show != tt.show {
				t.Fatalf("Show: got %v, want %v", p.Show, tt.show)
			}
			if !tt.show {
				return
			}
			if p.Why.ID != tt.why {
				t.Errorf("Why: got %q, want %q", p.Why.ID, tt.why)
			}
			if len(p.WayOut) != 2 || p.WayOut[0].ID != tt.wayOut {
				t.Fatalf("WayOut: got %+v, want %s then Remove", p.WayOut, tt.wayOut)
			}
			wantRemove := "DrawerWayOutRemove"
			if tt.removeMentionsIt {
				wantRemove = "DrawerWayOutRemoveFile"
			}
			if p.WayOut[1].ID != wantRemove {
				t.Errorf("remove hint: got %q, want %q", p.WayOut[1].ID, wantRemove)
			}
			if p.ApproveURL != tt.approve || p.RejectURL != tt.reject {
				t.Errorf("decisions: got %q/%q, want %q/%q", p.ApproveURL, p.RejectURL, tt.approve, tt.reject)
			}
			if (p.Config != nil) != tt.config {
				t.Errorf("config shown: got %v, want %v", p.Config != nil, tt.config)
			}
			if p.Config != nil && (p.Config.Fingerprint != "fp" || p.Config.Command.Text != "npx") {
				t.Errorf("config: got fingerprint %q command %q, want fp and npx", p.Config.Fingerprint, p.Config.Command.Text)
			}
		})
	}
}

// A decision turns pending into rejected without a change of state, so
// the stamp that makes the drawer reload must change with the reason.
func TestDrawerStampFollowsBlockedReason(t *testing.T) {
	pending := domain.Status{ServerName: "a", State: domain.StateDisabled, BlockedReason: domain.BlockedPending}
	rejected := pending
	rejected.BlockedReason = domain.BlockedRejected
	if views.NewDrawerHeaderProps(pending).Stamp == views.NewDrawerHeaderProps(rejected).Stamp {
		t.Errorf("pending and rejected share a live stamp; the drawer would keep showing Reject")
	}
}
