package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

var _ domain.TaskSession = (*session)(nil)

// errNotATask is an answer to a task request that holds no task.
var errNotATask = errors.New("the server's answer holds no task")

// StartTask sends tools/call asking the server to run it as a task (the
// MCP tasks extension). The server answers with the task it created,
// which mcp-go cannot decode (it expects a tool result) but the raw
// capture keeps; a server that ran the call at once answers with the
// result instead, returned as sent.
func (s *session) StartTask(ctx context.Context, tool string, args json.RawMessage) (domain.TaskStart, error) {
	req, err := callRequest(tool, args)
	if err != nil {
		return domain.TaskStart{}, err
	}
	req.Params.Task = &mcp.TaskParams{}
	ctx, done := s.running.start(ctx)
	defer done()
	res, err := s.sendRaw(ctx, "call "+tool+" as a task", func(ctx context.Context) error {
		_, err := s.client.CallTool(ctx, req)
		return err
	})
	if err != nil {
		return domain.TaskStart{}, err
	}
	var created struct {
		Task *taskJSON `json:"task"`
	}
	if json.Unmarshal(res, &created) == nil && created.Task != nil && created.Task.TaskID != "" {
		st := created.Task.state()
		return domain.TaskStart{Task: &st}, nil
	}
	return domain.TaskStart{Result: res}, nil
}

// GetTask sends tasks/get.
func (s *session) GetTask(ctx context.Context, id string) (domain.TaskState, error) {
	req := mcp.GetTaskRequest{}
	req.Params.TaskId = id
	res, err := s.sendRaw(ctx, "get task "+id, func(ctx context.Context) error {
		_, err := s.client.GetTask(ctx, req)
		return err
	})
	if err != nil {
		return domain.TaskState{}, err
	}
	return taskState("get task "+id, res)
}

// TaskResult sends tasks/result, which a server answers with the call's
// own result once the task has ended; it is returned as sent.
//
// The server may ask the caller for input while the result is awaited,
// so this counts as a call in flight, like CallTool.
func (s *session) TaskResult(ctx context.Context, id string) (json.RawMessage, error) {
	ctx, done := s.running.start(ctx)
	defer done()
	req := mcp.TaskResultRequest{}
	req.Params.TaskId = id
	return s.sendRaw(ctx, "get task result "+id, func(ctx context.Context) error {
		_, err := s.client.TaskResult(ctx, req)
		return err
	})
}

// CancelTask sends tasks/cancel and returns the task as the server now
// has it.
func (s *session) CancelTask(ctx context.Context, id string) (domain.TaskState, error) {
	req := mcp.CancelTaskRequest{}
	req.Params.TaskId = id
	res, err := s.sendRaw(ctx, "cancel task "+id, func(ctx context.Context) error {
		_, err := s.client.CancelTask(ctx, req)
		return err
	})
	if err != nil {
		return domain.TaskState{}, err
	}
	return taskState("cancel task "+id, res)
}

// taskJSON is a task as the tasks extension sends it. pollInterval is in
// milliseconds and may come as any JSON number.
type taskJSON struct {
	TaskID        string   `json:"taskId"`
	Status        string   `json:"status"`
	StatusMessage string   `json:"statusMessage"`
	PollInterval  *float64 `json:"pollInterval"`
}

// maxPollMillis keeps a server's suggested interval inside what a
// time.Duration can hold; the domain bounds it much further.
const maxPollMillis = math.MaxInt64 / int64(time.Millisecond)

func (t taskJSON) state() domain.TaskState {
	st := domain.TaskState{ID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage}
	if p := t.PollInterval; p != nil && *p > 0 {
		st.PollInterval = time.Duration(min(*p, float64(maxPollMillis)) * float64(time.Millisecond))
	}
	return st
}

// taskState reads the task tasks/get and tasks/cancel answer with: its
// fields at the top level of the result (2025-11-25), or under "task".
func taskState(op string, res json.RawMessage) (domain.TaskState, error) {
	var r struct {
		taskJSON
		Task *taskJSON `json:"task"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return domain.TaskState{}, fmt.Errorf("%s: %w", op, err)
	}
	t := r.taskJSON
	if r.Task != nil {
		t = *r.Task
	}
	if t.TaskID == "" && t.Status == "" {
		return domain.TaskState{}, fmt.Errorf("%s: %w", op, errNotATask)
	}
	return t.state(), nil
}
