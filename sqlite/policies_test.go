package sqlite

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestPoliciesSurviveReopenAndStayInTheirScope(t *testing.T) {
	dir := t.TempDir()
	alice := domain.Scope{User: "alice", Workspace: "w1"}
	db, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	s := db.PolicyStore()
	steps := []func() error{
		func() error { return s.SaveToolPolicy(t.Context(), alice, "demo", "rm", domain.PolicyDeny) },
		func() error { return s.SaveToolPolicy(t.Context(), alice, "demo", "ls", domain.PolicyAsk) },
		func() error { return s.SaveToolPolicy(t.Context(), alice, "demo", "ls", domain.PolicyHidden) },
		func() error { return s.SaveToolPolicy(t.Context(), alice, "demo", "cat", domain.PolicyAllow) },
		func() error { return s.SaveToolPolicy(t.Context(), alice, "demo", "cat", "") },
		func() error { return s.SaveAskAll(t.Context(), alice, "demo", true) },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if err := s.SaveToolPolicy(t.Context(), alice, "demo", "x", "maybe"); err == nil {
		t.Error("stored a policy that is not allow, ask, deny or hidden")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTestDB(t, dir).PolicyStore()
	got, err := s.ServerPolicies(t.Context(), alice, "demo")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]domain.Policy{"rm": domain.PolicyDeny, "ls": domain.PolicyHidden}
	if len(got.Tools) != len(want) || got.Tools["rm"] != want["rm"] || got.Tools["ls"] != want["ls"] || !got.AskAll {
		t.Errorf("after reopen: got %+v, want tools %v and askAll", got, want)
	}
	other, err := s.ServerPolicies(t.Context(), domain.Scope{User: "bob", Workspace: "w1"}, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(other.Tools) != 0 || other.AskAll {
		t.Errorf("another user sees %+v", other)
	}
	if err := s.SaveAskAll(t.Context(), alice, "demo", false); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ServerPolicies(t.Context(), alice, "demo"); got.AskAll {
		t.Error("askAll still on after turning it off")
	}
}
