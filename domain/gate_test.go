package domain_test

import (
	"context"
	"errors"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

func TestGate(t *testing.T) {
	tests := []struct {
		name string
		gate domain.Gate
		want map[string]domain.BlockedReason
	}{
		{"absent allowed allows all", domain.Gate{}, map[string]domain.BlockedReason{"a": "", "b": ""}},
		{"empty allowed denies all", domain.Gate{AllowedSet: true}, map[string]domain.BlockedReason{"a": domain.BlockedNotAllowed}},
		{"allowed lists who may", domain.Gate{Allowed: []string{"a"}, AllowedSet: true}, map[string]domain.BlockedReason{"a": "", "b": domain.BlockedNotAllowed}},
		{"excluded wins over allowed", domain.Gate{Allowed: []string{"a"}, AllowedSet: true, Excluded: []string{"a"}}, map[string]domain.BlockedReason{"a": domain.BlockedExcluded}},
		{"upper bound narrows", domain.Gate{UpperBound: []string{"a"}, UpperBoundSet: true}, map[string]domain.BlockedReason{"a": "", "b": domain.BlockedNotAllowed}},
		{"settings never widen the upper bound", domain.Gate{UpperBound: []string{"a"}, UpperBoundSet: true, Allowed: []string{"a", "b"}, AllowedSet: true},
			map[string]domain.BlockedReason{"a": "", "b": domain.BlockedNotAllowed}},
		{"settings may narrow the upper bound", domain.Gate{UpperBound: []string{"a", "b"}, UpperBoundSet: true, Allowed: []string{"b"}, AllowedSet: true},
			map[string]domain.BlockedReason{"a": domain.BlockedNotAllowed, "b": ""}},
	}
	for _, tt := range tests {
		for name, want := range tt.want {
			if got := tt.gate.Decide(name); got != want {
				t.Errorf("%s: Decide(%q) = %q, want %q", tt.name, name, got, want)
			}
		}
	}
}

// A newly excluded server disconnects and says why; allowed again, it connects.
func TestApplyBlockedServers(t *testing.T) {
	r := newRig(t, nil)
	a, b := server("a"), server("b")
	r.attach(a, b)
	sessA := domaintest.NewSession(caps())
	for range 2 {
		at := r.conn.Next(t)
		if at.Config.Name == "a" {
			at.Succeed(sessA)
		} else {
			at.Succeed(domaintest.NewSession(caps()))
		}
	}
	r.waitPhase("a", domain.PhaseConnected)
	r.waitPhase("b", domain.PhaseConnected)

	gate := domain.Gate{Excluded: []string{"a"}}
	res, err := r.fleet.Apply(context.Background(), gate.Apply([]domain.ServerConfig{a, b}))
	if err != nil || len(res.Blocked) != 1 || res.Blocked[0] != "a" || len(res.Unchanged) != 1 {
		t.Fatalf("Apply = %+v, %v; want a blocked and b untouched", res, err)
	}
	sessA.WaitClosed(t)
	st := r.waitFor("a", "blocked", func(s domain.Status) bool { return s.BlockedReason != "" })
	if st.BlockedReason != domain.BlockedExcluded || st.State != domain.StateDisabled {
		t.Errorf("a: %s %q, want disabled and excluded", st.State, st.BlockedReason)
	}
	if _, err := r.fleet.Restart(context.Background(), "a"); !errors.Is(err, domain.ErrBlocked) {
		t.Errorf("Restart of a blocked server: %v, want ErrBlocked", err)
	}
	if got, err := r.fleet.Status("a"); err != nil || got.BlockedReason != domain.BlockedExcluded {
		t.Errorf("Status(a) = %q, %v", got.BlockedReason, err)
	}

	res, err = r.fleet.Apply(context.Background(), domain.Gate{}.Apply([]domain.ServerConfig{a, b}))
	if err != nil || len(res.Reconnected) != 1 || res.Reconnected[0] != "a" {
		t.Fatalf("unblocking Apply = %+v, %v; want a connecting again", res, err)
	}
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	if st := r.waitPhase("a", domain.PhaseConnected); st.BlockedReason != "" {
		t.Errorf("a still says %q after it was allowed", st.BlockedReason)
	}
}

func TestSettingsGate(t *testing.T) {
	tests := []struct {
		json string
		want domain.Gate
	}{
		{`{"mcpServers": {}}`, domain.Gate{}},
		{`{"mcp": {"allowed": []}, "mcpServers": {}}`, domain.Gate{Allowed: []string{}, AllowedSet: true}},
		{`{"mcp": {"allowed": ["a"], "excluded": ["b"]}}`, domain.Gate{Allowed: []string{"a"}, AllowedSet: true, Excluded: []string{"b"}}},
	}
	for _, tt := range tests {
		set, err := domain.ParseSettings("s.json", []byte(tt.json), func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		g := set.Gate
		if g.AllowedSet != tt.want.AllowedSet || len(g.Allowed) != len(tt.want.Allowed) || len(g.Excluded) != len(tt.want.Excluded) {
			t.Errorf("%s: gate %+v, want %+v", tt.json, g, tt.want)
		}
	}
}
