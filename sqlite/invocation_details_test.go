package sqlite

import (
	"reflect"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestInvocationDetailsRoundTrip checks that defaults, mismatches and the
// task state come back as they were saved, and that a call without any
// reads back with none.
func TestInvocationDetailsRoundTrip(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	with := finished(scopeA, "with", 0)
	with.Defaults = []string{"/scale", "/options/level"}
	with.Mismatch = []domain.Violation{{Pointer: "/thoughtNumber", Message: "got string, want integer",
		Key: "SchemaMaxLength", Data: map[string]any{"Count": int64(3), "Name": "x"}}}
	with.Task = &domain.TaskState{ID: "task-1", Status: domain.TaskWorking, StatusMessage: "step 2 of 5",
		PollInterval: 1500 * time.Millisecond, UpdatedAt: t0.Add(3 * time.Second)}
	save(t, s, with)
	got := load(t, s, scopeA, "with")
	if !reflect.DeepEqual(got.Defaults, with.Defaults) || !reflect.DeepEqual(got.Mismatch, with.Mismatch) {
		t.Errorf("got defaults %v mismatch %v, want %v %v", got.Defaults, got.Mismatch, with.Defaults, with.Mismatch)
	}
	if got.Task == nil || *got.Task != *with.Task {
		t.Errorf("got task %+v, want %+v", got.Task, with.Task)
	}

	save(t, s, finished(scopeA, "without", 10))
	plain := load(t, s, scopeA, "without")
	if plain.Defaults != nil || plain.Mismatch != nil || plain.Task != nil {
		t.Errorf("got details %v %v %v on a plain call, want none", plain.Defaults, plain.Mismatch, plain.Task)
	}
}

// An invocation's output schema violations, found once when its result
// arrived, come back as they were saved, so the card never revalidates.
func TestInvocationOutputViolationsRoundTrip(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	inv := finished(scopeA, "output", 0)
	inv.OutputViolations = []domain.Violation{{Pointer: "/temperature", Message: "want number", Key: "SchemaType",
		Data: map[string]any{"Limit": 1.5}}, {Message: "missing property 'unit'"}}
	save(t, s, inv)
	if got := load(t, s, scopeA, "output"); !reflect.DeepEqual(got.OutputViolations, inv.OutputViolations) {
		t.Errorf("got output violations %+v, want %+v", got.OutputViolations, inv.OutputViolations)
	}
}
