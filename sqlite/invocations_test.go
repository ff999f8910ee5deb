package sqlite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

var (
	scopeA = domain.Scope{User: "alice", Workspace: "w1"}
	scopeB = domain.Scope{User: "bob", Workspace: "w1"}
)

// t0 is a start time with no sub-millisecond part, so that what the store
// keeps to the millisecond compares equal.
var t0 = time.UnixMilli(1_780_000_000_000)

// finished returns a successful invocation of scope, started at
// t0+startMs and ended a second later.
func finished(scope domain.Scope, id string, startMs int64) domain.Invocation {
	start := t0.Add(time.Duration(startMs) * time.Millisecond)
	return domain.Invocation{
		ID:         id,
		Scope:      scope,
		Key:        domain.CallKey{ConversationID: "conv", MessageID: "msg-" + id, ToolCallID: "call-" + id},
		ServerName: "demo",
		Tool:       "echo",
		Arguments:  json.RawMessage(`{"message":"hi"}`),
		Status:     domain.InvocationSuccess,
		Result:     json.RawMessage(`{"content":[{"type":"text","text":"hi"}]}`),
		ResultSize: 41,
		StartedAt:  start,
		EndedAt:    start.Add(time.Second),
		Version:    1,
		Source:     domain.SourceDashboard,
	}
}

func save(t *testing.T, s *InvocationStore, inv domain.Invocation) {
	t.Helper()
	if err := s.SaveInvocation(t.Context(), inv); err != nil {
		t.Fatalf("SaveInvocation(%s): %v", inv.ID, err)
	}
}

func load(t *testing.T, s *InvocationStore, scope domain.Scope, id string) domain.Invocation {
	t.Helper()
	inv, err := s.Invocation(t.Context(), scope, id)
	if err != nil {
		t.Fatalf("Invocation(%s): %v", id, err)
	}
	return inv
}

func TestInvocationRoundTrip(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	big := append(append([]byte(`{"content":[{"type":"text","text":"`), bytes.Repeat([]byte("x"), 5<<20)...), `"}]}`...)
	tests := []domain.Invocation{
		finished(scopeA, "done", 0),
		func() domain.Invocation {
			inv := finished(scopeA, "running", 1)
			inv.Status, inv.Result, inv.ResultSize, inv.EndedAt = domain.InvocationRunning, nil, 0, time.Time{}
			inv.Progress = &domain.Progress{Progress: 2, Total: 5, Message: "step 2"}
			return inv
		}(),
		func() domain.Invocation {
			inv := finished(scopeA, "big", 2)
			inv.Result, inv.ResultSize = big, int64(len(big))
			return inv
		}(),
		func() domain.Invocation {
			inv := finished(scopeA, "cut", 3)
			inv.Result, inv.Truncated, inv.ResultSize = json.RawMessage(`{"content":[{"ty`), true, 12<<20
			return inv
		}(),
		func() domain.Invocation {
			inv := finished(scopeA, "failed-retry", 4)
			inv.Status, inv.Result, inv.Error, inv.RetryOf = domain.InvocationError, nil, "server is not connected", "done"
			inv.Progress = &domain.Progress{Progress: 0.5}
			return inv
		}(),
	}
	for _, want := range tests {
		save(t, s, want)
		got := load(t, s, scopeA, want.ID)
		if !reflect.DeepEqual(got, want) {
			if len(want.Result) > 1000 {
				t.Errorf("%s: got a result of %d bytes (equal: %v), want %d", want.ID, len(got.Result),
					bytes.Equal(got.Result, want.Result), len(want.Result))
				continue
			}
			t.Errorf("%s:\n got %+v\nwant %+v", want.ID, got, want)
		}
	}
}

func TestInvocationEmptyArgumentsStoredAsObject(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	inv := finished(scopeA, "x", 0)
	inv.Arguments = nil
	save(t, s, inv)
	if got := string(load(t, s, scopeA, "x").Arguments); got != "{}" {
		t.Errorf("got arguments %s, want {}", got)
	}
}

func TestInvocationOtherScopeNotFound(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	save(t, s, finished(scopeA, "mine", 0))
	for _, scope := range []domain.Scope{scopeB, {User: "alice", Workspace: "w2"}} {
		_, err := s.Invocation(t.Context(), scope, "mine")
		if !errors.Is(err, domain.ErrInvocationNotFound) {
			t.Errorf("Invocation from %+v: got %v, want ErrInvocationNotFound", scope, err)
		}
		list, err := s.Invocations(t.Context(), scope, domain.InvocationFilter{})
		if err != nil || len(list) != 0 {
			t.Errorf("Invocations of %+v: got %d rows, %v; want none", scope, len(list), err)
		}
		_, err = s.Invocations(t.Context(), scope, domain.InvocationFilter{Before: "mine"})
		if !errors.Is(err, domain.ErrInvocationNotFound) {
			t.Errorf("Invocations of %+v before another scope's id: got %v, want ErrInvocationNotFound", scope, err)
		}
	}
	// The same id may exist in two scopes without either seeing the other.
	other := finished(scopeB, "mine", 5)
	other.Tool = "add"
	save(t, s, other)
	if got := load(t, s, scopeA, "mine").Tool; got != "echo" {
		t.Errorf("scope A's invocation has tool %q after scope B saved the same id, want echo", got)
	}
}

func TestInvocationVersionGuard(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	running := finished(scopeA, "x", 0)
	running.Status, running.EndedAt, running.Result, running.Version = domain.InvocationRunning, time.Time{}, nil, 2
	done := finished(scopeA, "x", 0)
	done.Version = 3
	pending := finished(scopeA, "x", 0)
	pending.Status, pending.EndedAt, pending.Result, pending.Version = domain.InvocationPending, time.Time{}, nil, 1

	save(t, s, running)
	save(t, s, done)
	save(t, s, pending) // arrives late: must not win
	if got := load(t, s, scopeA, "x"); got.Status != domain.InvocationSuccess || got.Version != 3 {
		t.Errorf("got %s at version %d, want success at version 3", got.Status, got.Version)
	}
	// The same version again is idempotent.
	save(t, s, done)
	if got := load(t, s, scopeA, "x"); !reflect.DeepEqual(got, done) {
		t.Errorf("got %+v after saving version 3 twice, want %+v", got, done)
	}
}

func TestInvocationCallKeyIsUniquePerScope(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	first := finished(scopeA, "first", 0)
	save(t, s, first)
	dup := finished(scopeA, "second", 1)
	dup.Key = first.Key
	if err := s.SaveInvocation(t.Context(), dup); !errors.Is(err, ErrCallKeyTaken) || !errors.Is(err, domain.ErrDuplicateCall) {
		t.Errorf("second invocation with the same key: got %v, want ErrCallKeyTaken, which is domain.ErrDuplicateCall", err)
	}
	// Another scope may use the same key.
	dup.Scope = scopeB
	save(t, s, dup)
	// Updating the first one keeps its key.
	first.Version = 2
	save(t, s, first)
}

func TestInvocationCheckConstraints(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	tests := []struct {
		name string
		edit func(*domain.Invocation)
	}{
		{"unknown-status", func(i *domain.Invocation) { i.Status = "done" }},
		{"arguments-not-json", func(i *domain.Invocation) { i.Arguments = json.RawMessage(`{"a":`) }},
		{"negative-size", func(i *domain.Invocation) { i.ResultSize = -1 }},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := finished(scopeA, fmt.Sprint("c", i), int64(i))
			tt.edit(&inv)
			if err := s.SaveInvocation(t.Context(), inv); err == nil {
				t.Error("got nil, want a constraint error")
			}
		})
	}
}

// Goroutines saving versions of the same invocations in any order leave
// the highest version of each; run with -race.
func TestInvocationConcurrentSaves(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	const invocations, versions = 4, 25
	var wg sync.WaitGroup
	for i := range invocations {
		for v := versions; v >= 1; v-- {
			wg.Go(func() {
				inv := finished(scopeA, fmt.Sprint("inv", i), int64(i))
				inv.Version = uint64(v)
				inv.Error = fmt.Sprint("version ", v)
				if err := s.SaveInvocation(t.Context(), inv); err != nil {
					t.Errorf("save %d v%d: %v", i, v, err)
				}
				if _, err := s.Invocations(t.Context(), scopeA, domain.InvocationFilter{}); err != nil {
					t.Errorf("list: %v", err)
				}
			})
		}
	}
	wg.Wait()
	for i := range invocations {
		got := load(t, s, scopeA, fmt.Sprint("inv", i))
		if got.Version != versions || got.Error != fmt.Sprint("version ", versions) {
			t.Errorf("inv%d: got version %d (%q), want %d", i, got.Version, got.Error, versions)
		}
	}
}

func TestPurgeServerKeepsHistory(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	s := db.InvocationStore()
	save(t, s, finished(scopeA, "kept", 0))
	appendAudit(t, s, auditOf(finished(scopeA, "kept", 0)))
	if err := db.ServerStore().PurgeServer(t.Context(), scopeA, "demo"); err != nil {
		t.Fatal(err)
	}
	load(t, s, scopeA, "kept")
	if n := countAudit(t, db); n != 1 {
		t.Errorf("audit rows after PurgeServer: got %d, want 1", n)
	}
}
