package domain_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// A name listed twice (a kept-back entry appended after a bad edit, say)
// resolves to its last entry, and is reported once.
func TestApplyLastEntryOfANameWins(t *testing.T) {
	r := newRig(t, nil)
	a, b := server("a"), server("b")
	r.attach(a, b)
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	r.conn.Next(t).Succeed(domaintest.NewSession(caps()))
	r.waitPhase("a", domain.PhaseConnected)
	r.waitPhase("b", domain.PhaseConnected)

	a2 := a
	a2.Args = []string{"--new"}
	res, err := r.fleet.Apply(context.Background(), []domain.ServerConfig{a2, b, a})
	if err != nil {
		t.Fatal(err)
	}
	if want := (domain.ApplyResult{Unchanged: []string{"a", "b"}}); !reflect.DeepEqual(res, want) {
		t.Errorf("Apply(a changed, b, a as before) = %+v, want %+v", res, want)
	}
	res, err = r.fleet.Apply(context.Background(), []domain.ServerConfig{a, b, a2})
	if err != nil {
		t.Fatal(err)
	}
	if want := (domain.ApplyResult{Reconnected: []string{"a"}, Unchanged: []string{"b"}}); !reflect.DeepEqual(res, want) {
		t.Errorf("Apply(a, b, a changed) = %+v, want %+v", res, want)
	}
	if at := r.conn.Next(t); !reflect.DeepEqual(at.Config.Args, []string{"--new"}) {
		t.Errorf("a reconnected with args %v, want the last entry's", at.Config.Args)
	}
}
