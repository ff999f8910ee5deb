package sqlite

import (
	"reflect"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestCallsPerMinute(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	minute := t0.Truncate(time.Minute).Add(time.Hour)
	call := func(id string, at time.Duration, status domain.InvocationStatus, server string) {
		inv := finished(scopeA, id, 0)
		inv.StartedAt, inv.EndedAt = minute.Add(at), minute.Add(at+time.Second)
		inv.Status, inv.ServerName = status, server
		if !status.Final() {
			inv.EndedAt = time.Time{}
		}
		save(t, s, inv)
	}
	call("early", -time.Second, domain.InvocationSuccess, "demo") // before since
	call("a", 0, domain.InvocationSuccess, "demo")
	call("b", 10*time.Second, domain.InvocationError, "demo")
	call("c", 59*time.Second, domain.InvocationSuccess, "other")
	call("d", 3*time.Minute, domain.InvocationCancelled, "demo")
	call("e", 3*time.Minute+time.Second, domain.InvocationDenied, "demo")
	call("f", 3*time.Minute+2*time.Second, domain.InvocationRunning, "demo")
	call("late", 10*time.Minute, domain.InvocationSuccess, "demo") // at until: excluded
	other := finished(scopeB, "z", 0)
	other.StartedAt = minute.Add(time.Second)
	save(t, s, other)

	tests := []struct {
		name string
		f    domain.InvocationFilter
		want []domain.MinuteOutcomes
	}{
		{"all", domain.InvocationFilter{}, []domain.MinuteOutcomes{
			{Start: minute.UTC(), Success: 2, Error: 1},
			{Start: minute.Add(3 * time.Minute).UTC(), Cancelled: 1, Denied: 1, Other: 1},
		}},
		{"by-server", domain.InvocationFilter{ServerName: "other"}, []domain.MinuteOutcomes{
			{Start: minute.UTC(), Success: 1},
		}},
		{"by-status", domain.InvocationFilter{Status: domain.InvocationError}, []domain.MinuteOutcomes{
			{Start: minute.UTC(), Error: 1},
		}},
		{"narrowed-by-started", domain.InvocationFilter{StartedFrom: minute.Add(time.Minute)}, []domain.MinuteOutcomes{
			{Start: minute.Add(3 * time.Minute).UTC(), Cancelled: 1, Denied: 1, Other: 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.CallsPerMinute(t.Context(), scopeA, minute, minute.Add(10*time.Minute), tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestInvocationsStartedBetween(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	for i, id := range []string{"a", "b", "c", "d"} {
		save(t, s, finished(scopeA, id, int64(i)*60_000))
	}
	tests := []struct {
		name string
		f    domain.InvocationFilter
		want []string
	}{
		{"from", domain.InvocationFilter{StartedFrom: t0.Add(time.Minute)}, []string{"d", "c", "b"}},
		{"before", domain.InvocationFilter{StartedBefore: t0.Add(time.Minute)}, []string{"a"}},
		{"one-minute", domain.InvocationFilter{StartedFrom: t0.Add(2 * time.Minute), StartedBefore: t0.Add(3 * time.Minute)}, []string{"c"}},
		{"with-before-id", domain.InvocationFilter{StartedFrom: t0.Add(time.Minute), Before: "c"}, []string{"b"}},
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

// TestCallTimings: only answered calls of the server since the window's
// start, the newest limit of them, oldest first, with their times.
func TestCallTimings(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	since := t0.Truncate(time.Minute).Add(time.Hour)
	call := func(id string, at time.Duration, status domain.InvocationStatus, server string) {
		inv := finished(scopeA, id, 0)
		inv.StartedAt, inv.EndedAt = since.Add(at), since.Add(at+250*time.Millisecond)
		inv.Status, inv.ServerName = status, server
		if !status.Final() {
			inv.EndedAt = time.Time{}
		}
		save(t, s, inv)
	}
	call("before", -time.Second, domain.InvocationSuccess, "demo")
	call("a", 0, domain.InvocationSuccess, "demo")
	call("b", time.Second, domain.InvocationError, "demo")
	call("c", 2*time.Second, domain.InvocationDenied, "demo")
	call("d", 3*time.Second, domain.InvocationCancelled, "demo")
	call("e", 4*time.Second, domain.InvocationRunning, "demo")
	call("f", 5*time.Second, domain.InvocationSuccess, "other")
	call("g", 6*time.Second, domain.InvocationSuccess, "demo")

	got, err := s.CallTimings(t.Context(), scopeA, "demo", since, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.CallTiming{
		{StartedAt: since, EndedAt: since.Add(250 * time.Millisecond), Status: domain.InvocationSuccess},
		{StartedAt: since.Add(time.Second), EndedAt: since.Add(1250 * time.Millisecond), Status: domain.InvocationError},
		{StartedAt: since.Add(6 * time.Second), EndedAt: since.Add(6250 * time.Millisecond), Status: domain.InvocationSuccess},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d timings %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if !got[i].StartedAt.Equal(want[i].StartedAt) || !got[i].EndedAt.Equal(want[i].EndedAt) || got[i].Status != want[i].Status {
			t.Errorf("timing %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	newest, err := s.CallTimings(t.Context(), scopeA, "demo", since, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(newest) != 2 || !newest[0].StartedAt.Equal(since.Add(time.Second)) || !newest[1].StartedAt.Equal(since.Add(6*time.Second)) {
		t.Errorf("limit 2: got %+v, want the two newest, oldest first", newest)
	}
}
