package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// An elicitation sent as a task is answered with a working task at once;
// the caller is asked without the task, and the server polls, waits for
// the result, and gets the caller's answer marked with the task's id.
func TestClientTaskElicitation(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t)
	task := created(t, r.send(domain.MethodElicit, `{"message":"Name?","task":{"ttl":7200000},"requestedSchema":{"type":"object"}}`))
	if task.Status != mcp.TaskStatusWorking || task.StatusMessage != taskWaiting || *task.TTL != time.Hour.Milliseconds() || *task.PollInterval != 1000 {
		t.Errorf("created task %+v, want working, ttl capped at an hour, polled every second", task)
	}
	if req := r.asked(); string(req.Params) != `{"message":"Name?","requestedSchema":{"type":"object"}}` {
		t.Errorf("the caller was asked %s, want the params without the task", req.Params)
	}
	if got := r.task("tasks/get", task.TaskId); got.Status != mcp.TaskStatusWorking {
		t.Errorf("tasks/get before the answer = %+v, want working", got)
	}
	result := make(chan *transport.JSONRPCResponse, 1)
	go func() { result <- r.send("tasks/result", fmt.Sprintf(`{"taskId":%q}`, task.TaskId)) }()
	r.asker.answers <- answerOrErr{res: json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`)}
	var resp *transport.JSONRPCResponse
	select {
	case resp = <-result:
	case <-time.After(taskWait):
		t.Fatal("tasks/result did not return once the task ended")
	}
	want := `{"action":"accept","content":{"name":"Ada"},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"` + task.TaskId + `"}}}`
	if resp.Error != nil || string(resp.Result) != want {
		t.Errorf("tasks/result = %s %+v, want %s", resp.Result, resp.Error, want)
	}
	if got := r.task("tasks/get", task.TaskId); got.Status != mcp.TaskStatusCompleted {
		t.Errorf("tasks/get after the answer = %+v, want completed", got)
	}
	var list mcp.ListTasksResult
	if err := json.Unmarshal(r.send("tasks/list", `{}`).Result, &list); err != nil || len(list.Tasks) != 1 || list.Tasks[0].TaskId != task.TaskId {
		t.Errorf("tasks/list = %+v (%v), want the one task", list, err)
	}
	if resp := r.send("tasks/cancel", fmt.Sprintf(`{"taskId":%q}`, task.TaskId)); resp.Error == nil || resp.Error.Code != mcp.INVALID_PARAMS {
		t.Errorf("tasks/cancel of a completed task = %+v, want invalid params", resp)
	}
	// Once its TTL has passed, the task is forgotten.
	r.advance(time.Hour)
	if resp := r.send("tasks/get", fmt.Sprintf(`{"taskId":%q}`, task.TaskId)); resp.Error == nil || resp.Error.Code != mcp.INVALID_PARAMS {
		t.Errorf("tasks/get after the TTL = %+v, want invalid params", resp)
	}
}

// tasks/cancel withdraws the question from the caller and ends the task
// as cancelled; tasks/result then says so, and unknown ids are invalid.
func TestClientTaskCancel(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t)
	task := created(t, r.send(domain.MethodSample, `{"messages":[],"maxTokens":5,"task":{}}`))
	if *task.TTL != defaultTaskTTL.Milliseconds() {
		t.Errorf("ttl %d, want the default %s", *task.TTL, defaultTaskTTL)
	}
	r.asked()
	if got := r.task("tasks/cancel", task.TaskId); got.Status != mcp.TaskStatusCancelled {
		t.Errorf("tasks/cancel = %+v, want cancelled", got)
	}
	select {
	case err := <-r.asker.ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the caller's ctx ended with %v, want canceled", err)
		}
	case <-time.After(taskWait):
		t.Fatal("the caller's question was not withdrawn")
	}
	if resp := r.send("tasks/result", fmt.Sprintf(`{"taskId":%q}`, task.TaskId)); resp.Error == nil || !strings.Contains(resp.Error.Message, "cancelled") {
		t.Errorf("tasks/result of a cancelled task = %+v, want an error saying so", resp)
	}
	if got := r.task("tasks/get", task.TaskId); got.Status != mcp.TaskStatusCancelled {
		t.Errorf("tasks/get = %+v, want still cancelled", got)
	}
	for _, method := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
		if resp := r.send(method, `{"taskId":"no-such-task"}`); resp.Error == nil || resp.Error.Code != mcp.INVALID_PARAMS {
			t.Errorf("%s of an unknown task = %+v, want invalid params", method, resp)
		}
	}
	if resp := r.send("tasks/get", `{}`); resp.Error == nil || resp.Error.Code != mcp.INVALID_PARAMS {
		t.Errorf("tasks/get without a taskId = %+v, want invalid params", resp)
	}
}

// A task whose caller failed ends failed, and tasks/result gives the
// error the request would have been answered with; a caller nobody could
// ask fails it with the reason.
func TestClientTaskFailed(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t)
	for _, tt := range []struct {
		err      error
		code     int
		contains string
	}{
		{&domain.ServerError{Code: -1, Message: "User rejected the request"}, -1, "User rejected the request"},
		{fmt.Errorf("%w: the client declared no sampling", domain.ErrNotAsked), mcp.INVALID_REQUEST, "the client declared no sampling"},
	} {
		task := created(t, r.send(domain.MethodSample, `{"messages":[],"maxTokens":5,"task":{"ttl":1000}}`))
		r.asked()
		r.asker.answers <- answerOrErr{err: tt.err}
		resp := r.send("tasks/result", fmt.Sprintf(`{"taskId":%q}`, task.TaskId))
		if resp.Error == nil || resp.Error.Code != tt.code || !strings.Contains(resp.Error.Message, tt.contains) {
			t.Errorf("tasks/result = %+v, want code %d and %q", resp, tt.code, tt.contains)
		}
		if got := r.task("tasks/get", task.TaskId); got.Status != mcp.TaskStatusFailed || !strings.Contains(got.StatusMessage, tt.contains) {
			t.Errorf("tasks/get = %+v, want failed saying %q", got, tt.contains)
		}
	}
}

// Beyond maxWorkingTasks, a request sent as a task is answered at once,
// without its task; and a request nobody can be asked is refused at once
// rather than becoming a task.
func TestClientTaskBounds(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t)
	r.asker.instant = "one more"
	for range maxWorkingTasks {
		created(t, r.send(domain.MethodElicit, `{"message":"?","task":{}}`))
		r.asked()
	}
	done := make(chan *transport.JSONRPCResponse, 1)
	go func() { done <- r.send(domain.MethodElicit, `{"message":"one more","task":{}}`) }()
	if req := r.asked(); strings.Contains(string(req.Params), "task") {
		t.Errorf("asked %s, want no task", req.Params)
	}
	select {
	case resp := <-done:
		if resp.Error != nil || string(resp.Result) != `{"action":"decline"}` {
			t.Errorf("the request beyond the bound got %s %+v, want the answer itself", resp.Result, resp.Error)
		}
	case <-time.After(taskWait):
		t.Fatal("the request beyond the bound was not answered at once")
	}

	// No call running: nobody to ask, so no task.
	asks := &serverAsks{server: "srv", log: slog.New(slog.NewTextHandler(io.Discard, nil)), calls: &inFlight{},
		sent: &sentParams{}, session: context.Background(), tasks: newClientTasks(context.Background())}
	resp, _ := asks.handler(nil, nil)(context.Background(), transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(1)),
		Method: domain.MethodSample, Params: map[string]any{"messages": []any{}, "task": map[string]any{}}})
	if resp == nil || resp.Error == nil || !strings.Contains(resp.Error.Message, "no call was running") {
		t.Errorf("a task with nobody to ask = %+v, want refused at once", resp)
	}
}

// An elicitation that belongs to no call, sent as a task, is put to a
// person (Options.NoCallAsker) in the background like any other.
func TestClientTaskPeople(t *testing.T) {
	t.Parallel()
	session, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	person := newTaskAsker()
	asks := &serverAsks{server: "srv", log: slog.New(slog.NewTextHandler(io.Discard, nil)), calls: &inFlight{},
		sent: &sentParams{}, session: session, people: person, tasks: newClientTasks(session)}
	handle := asks.handler(nil, nil)
	resp, err := handle(context.Background(), transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(1)),
		Method: domain.MethodElicit, Params: map[string]any{"message": "Sign in?", "task": map[string]any{"ttl": 60000}}})
	if err != nil {
		t.Fatal(err)
	}
	task := created(t, resp)
	select {
	case req := <-person.asked:
		if string(req.Params) != `{"message":"Sign in?"}` {
			t.Errorf("the person was asked %s, want the params without the task", req.Params)
		}
	case <-time.After(taskWait):
		t.Fatal("the person was never asked")
	}
	person.answers <- answerOrErr{res: json.RawMessage(`{"action":"cancel"}`)}
	resp, _ = handle(context.Background(), transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(2)),
		Method: "tasks/result", Params: map[string]any{"taskId": task.TaskId}})
	if resp == nil || resp.Error != nil || !strings.HasPrefix(string(resp.Result), `{"action":"cancel","_meta":`) {
		t.Errorf("tasks/result = %+v, want the person's answer", resp)
	}
	resp, _ = handle(context.Background(), transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(3)),
		Method: "tasks/get", Params: map[string]any{"taskId": task.TaskId}})
	if resp == nil || !strings.Contains(string(resp.Result), `"status":"completed"`) {
		t.Errorf("tasks/get = %+v, want completed: a cancelled form is a completed elicitation", resp)
	}
}
