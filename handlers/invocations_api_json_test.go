package handlers_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// A call that runs as a task shows the task's id, status and message in
// the API; one that does not has no task key at all.
func TestInvocationJSONCarriesTheTask(t *testing.T) {
	inv := domain.Invocation{ID: "i1", ServerName: "everything", Tool: "simulate-research-query",
		Status: domain.InvocationRunning, StartedAt: t0,
		Task: &domain.TaskState{ID: "t-9", Status: domain.TaskWorking, StatusMessage: "Gathering sources",
			PollInterval: 2 * time.Second, UpdatedAt: t0.Add(time.Second)}}
	b, err := json.Marshal(handlers.InvocationJSON(inv))
	if err != nil {
		t.Fatal(err)
	}
	want := `"task":{"taskId":"t-9","status":"working","statusMessage":"Gathering sources","pollIntervalMs":2000,"updatedAt":1796029201000}`
	if !strings.Contains(string(b), want) {
		t.Errorf("got %s, want it to contain %s", b, want)
	}
	inv.Task = nil
	if b, _ := json.Marshal(handlers.InvocationJSON(inv)); strings.Contains(string(b), `"task"`) {
		t.Errorf("got %s, want no task key for a plain call", b)
	}
}
