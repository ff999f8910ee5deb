package domain_test

import (
	"errors"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestPolicyByPath(t *testing.T) {
	tests := []struct {
		name    string
		policy  domain.Policy
		source  string
		wantErr error
		want    domain.InvocationStatus // the first status after pending
	}{
		{"deny-refuses-dashboard", domain.PolicyDeny, domain.SourceDashboard, domain.ErrDeniedByPolicy, ""},
		{"deny-refuses-api", domain.PolicyDeny, domain.SourceAPI, domain.ErrDeniedByPolicy, ""},
		{"deny-refuses-gateway", domain.PolicyDeny, domain.SourceGateway, domain.ErrDeniedByPolicy, ""},
		{"hidden-is-not-found-for-gateway", domain.PolicyHidden, domain.SourceGateway, domain.ErrToolNotFound, ""},
		{"hidden-runs-from-dashboard", domain.PolicyHidden, domain.SourceDashboard, nil, domain.InvocationRunning},
		{"ask-runs-from-api", domain.PolicyAsk, domain.SourceAPI, nil, domain.InvocationRunning},
		{"ask-runs-from-dashboard", domain.PolicyAsk, "", nil, domain.InvocationRunning},
		{"ask-holds-gateway", domain.PolicyAsk, domain.SourceGateway, nil, domain.InvocationAwaitingApproval},
		{"allow-runs-gateway", domain.PolicyAllow, domain.SourceGateway, nil, domain.InvocationRunning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ir, policies, _ := newHoldRig(t)
			if err := policies.SaveToolPolicy(t.Context(), ir.scope, "srv", "ls", tt.policy); err != nil {
				t.Fatal(err)
			}
			req := gatewayCall(ir, "ls", `{}`)
			req.Source = tt.source
			inv, err := ir.svc.Start(t.Context(), req)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got %v, want %v", err, tt.wantErr)
				}
				if list, _ := ir.svc.List(t.Context(), ir.scope, domain.InvocationFilter{}); len(list) != 0 {
					t.Errorf("a refused call was recorded: %d invocations", len(list))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wantSource := tt.source
			if wantSource == "" {
				wantSource = domain.SourceDashboard
			}
			if inv.Source != wantSource {
				t.Errorf("source: got %q, want %q", inv.Source, wantSource)
			}
			if tt.want == domain.InvocationAwaitingApproval {
				ir.waitStatus(t, inv.ID, tt.want)
				return
			}
			seen := ir.statuses(t, inv.ID)
			if len(seen) < 2 || seen[1].Status != tt.want {
				t.Errorf("statuses: got %s, want %s second", order(seen), tt.want)
			}
		})
	}
}
