package sqlite

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ids lists the ids of invs in order.
func ids(invs []domain.Invocation) []string {
	out := make([]string, 0, len(invs))
	for _, inv := range invs {
		out = append(out, inv.ID)
	}
	return out
}

func TestInvocationsListing(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	// a..f start in this order; c and d in the same millisecond, so the
	// id breaks the tie.
	for i, id := range []string{"a", "b", "c", "d", "e", "f"} {
		inv := finished(scopeA, id, map[int]int64{0: 0, 1: 10, 2: 20, 3: 20, 4: 30, 5: 40}[i])
		switch id {
		case "b", "e":
			inv.ServerName = "other"
		case "c":
			inv.Tool = "add"
		case "f":
			inv.Status = domain.InvocationError
		}
		save(t, s, inv)
	}
	save(t, s, finished(scopeB, "z", 100))

	tests := []struct {
		name string
		f    domain.InvocationFilter
		want []string
	}{
		{"newest-first", domain.InvocationFilter{}, []string{"f", "e", "d", "c", "b", "a"}},
		{"by-server", domain.InvocationFilter{ServerName: "other"}, []string{"e", "b"}},
		{"by-tool", domain.InvocationFilter{Tool: "add"}, []string{"c"}},
		{"by-status", domain.InvocationFilter{Status: domain.InvocationError}, []string{"f"}},
		{"combined", domain.InvocationFilter{ServerName: "demo", Tool: "echo", Status: domain.InvocationSuccess}, []string{"d", "a"}},
		{"no-match", domain.InvocationFilter{ServerName: "gone"}, []string{}},
		{"limit", domain.InvocationFilter{Limit: 2}, []string{"f", "e"}},
		{"page-2", domain.InvocationFilter{Limit: 2, Before: "e"}, []string{"d", "c"}},
		{"page-in-a-tie", domain.InvocationFilter{Limit: 2, Before: "d"}, []string{"c", "b"}},
		{"last-page", domain.InvocationFilter{Limit: 2, Before: "b"}, []string{"a"}},
		{"page-with-filter", domain.InvocationFilter{ServerName: "demo", Before: "d"}, []string{"c", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Invocations(t.Context(), scopeA, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if g := ids(got); !reflect.DeepEqual(g, tt.want) {
				t.Errorf("got %v, want %v", g, tt.want)
			}
		})
	}
}

func TestInvocationsLimits(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	for i := range MaxInvocationLimit + 10 {
		save(t, s, finished(scopeA, fmt.Sprintf("i%03d", i), int64(i)))
	}
	tests := []struct{ limit, want int }{
		{0, DefaultInvocationLimit},
		{-3, DefaultInvocationLimit},
		{7, 7},
		{MaxInvocationLimit + 1, MaxInvocationLimit},
	}
	for _, tt := range tests {
		got, err := s.Invocations(t.Context(), scopeA, domain.InvocationFilter{Limit: tt.limit})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tt.want {
			t.Errorf("limit %d: got %d rows, want %d", tt.limit, len(got), tt.want)
		}
	}
}
