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

// The requests a server made during a call are in the API in order, with
// their time and outcome; a call without any has no asks key.
func TestInvocationJSONCarriesTheAsks(t *testing.T) {
	inv := domain.Invocation{ID: "i1", ServerName: "everything", Tool: "trigger-elicitation-request",
		Status: domain.InvocationSuccess, StartedAt: t0, Source: domain.SourceGateway,
		Asks: []domain.AskRecord{
			{Method: domain.MethodElicit, At: t0.Add(time.Second), Outcome: domain.AskAnswered},
			{Method: domain.MethodSample, At: t0.Add(2 * time.Second), Outcome: domain.AskNotAsked,
				Detail: "the calling client does not support sampling"},
		}}
	b, err := json.Marshal(handlers.InvocationJSON(inv))
	if err != nil {
		t.Fatal(err)
	}
	want := `"asks":[{"method":"elicitation/create","at":1796029201000,"outcome":"answered"},` +
		`{"method":"sampling/createMessage","at":1796029202000,"outcome":"not_asked","detail":"the calling client does not support sampling"}]`
	if !strings.Contains(string(b), want) {
		t.Errorf("got %s, want it to contain %s", b, want)
	}
	inv.Asks = nil
	if b, _ := json.Marshal(handlers.InvocationJSON(inv)); strings.Contains(string(b), `"asks"`) {
		t.Errorf("got %s, want no asks key for a call that asked nothing", b)
	}
}
