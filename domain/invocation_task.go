package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// TaskStart is a server's answer to a call sent as a task: the task it
// created, or, from a server that ran the call at once, the result.
type TaskStart struct {
	Task   *TaskState
	Result json.RawMessage
}

// TaskSession is a Session that can run tool calls as tasks (the MCP
// tasks extension). The mcpclient adapter's sessions implement it.
type TaskSession interface {
	// StartTask sends tools/call asking for a task.
	StartTask(ctx context.Context, tool string, args json.RawMessage) (TaskStart, error)
	// GetTask sends tasks/get.
	GetTask(ctx context.Context, id string) (TaskState, error)
	// TaskResult sends tasks/result and returns the call's result as JSON.
	TaskResult(ctx context.Context, id string) (json.RawMessage, error)
	// CancelTask sends tasks/cancel and returns the task as it now is.
	CancelTask(ctx context.Context, id string) (TaskState, error)
}

// TaskCaller is TaskSession addressed by server name; the Fleet
// implements it as part of ToolCaller.
type TaskCaller interface {
	StartTask(ctx context.Context, server, tool string, args json.RawMessage) (TaskStart, error)
	GetTask(ctx context.Context, server, id string) (TaskState, error)
	TaskResult(ctx context.Context, server, id string) (json.RawMessage, error)
	CancelTask(ctx context.Context, server, id string) (TaskState, error)
}

// Bounds of the wait between two tasks/get: a server's suggestion is
// followed inside them, and DefaultTaskPoll is used when it suggests none.
const (
	DefaultTaskPoll = time.Second
	MinTaskPoll     = 250 * time.Millisecond
	MaxTaskPoll     = 30 * time.Second
)

// taskCancelTimeout bounds the tasks/cancel sent after a call ended, whose
// own context is already over.
const taskCancelTimeout = 10 * time.Second

// runsAsTask reports whether a call of t runs as a task: always when the
// tool requires it, and when asked for a tool that allows it.
func runsAsTask(t Tool, asked bool) bool {
	return t.TaskSupport == TaskSupportRequired || (asked && t.TaskSupport == TaskSupportOptional)
}

// pollWait is how long to wait before asking about t again.
func pollWait(t TaskState) time.Duration {
	if t.PollInterval <= 0 {
		return DefaultTaskPoll
	}
	return min(max(t.PollInterval, MinTaskPoll), MaxTaskPoll)
}

// runTask sends the call as a task, publishes every status the server
// reports while polling tasks/get at its suggested interval, and returns
// the task's result once it has ended. When ctx ends first (a person's
// Cancel, the call timeout) the server is told with tasks/cancel.
func (c *call) runTask(ctx context.Context, inv Invocation) (json.RawMessage, error) {
	caller := c.svc.opts.Caller
	start, err := caller.StartTask(ctx, inv.ServerName, inv.Tool, inv.Arguments)
	if err != nil {
		return nil, err
	}
	if start.Task == nil {
		return start.Result, nil
	}
	task := *start.Task
	c.onTask(task)
	for !task.Final() {
		timer := c.svc.opts.Clock.NewTimer(pollWait(task))
		select {
		case <-ctx.Done():
			timer.Stop()
			c.cancelTask(inv.ServerName, task.ID)
			return nil, ctx.Err()
		case <-timer.C():
		}
		next, err := caller.GetTask(ctx, inv.ServerName, task.ID)
		if err != nil {
			if ctx.Err() != nil {
				c.cancelTask(inv.ServerName, task.ID)
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("task %s: %w", task.ID, err)
		}
		if next.ID == "" {
			next.ID = task.ID
		}
		task = next
		c.onTask(task)
	}
	if task.Status == TaskCancelled {
		return nil, ErrTaskCancelled
	}
	// A failed task's result is its error: a tool result with isError, or
	// the JSON-RPC error tasks/result answers with.
	res, err := caller.TaskResult(ctx, inv.ServerName, task.ID)
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", task.ID, err)
	}
	if task.Status == TaskFailed && !resultIsError(res) {
		return res, taskFailure(task)
	}
	return res, nil
}

// taskFailure is a task the server reports failed, with its words.
func taskFailure(t TaskState) error {
	if t.StatusMessage == "" {
		return ErrTaskFailed
	}
	return fmt.Errorf("%w: %s", ErrTaskFailed, t.StatusMessage)
}

// cancelTask sends tasks/cancel on a context of its own, since the call's
// has ended, and publishes what the server says the task now is.
func (c *call) cancelTask(server, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), taskCancelTimeout)
	defer cancel()
	t, err := c.svc.opts.Caller.CancelTask(ctx, server, id)
	if err != nil {
		c.svc.opts.Log.Warn("cancel task", "server", server, "task", id, "error", err)
		return
	}
	if t.ID == "" {
		t.ID = id
	}
	c.onTask(t)
}

// onTask publishes a task state the server reported, if it says something
// new; the final save stores the last one.
func (c *call) onTask(t TaskState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.inv.Task; old != nil && old.ID == t.ID && old.Status == t.Status &&
		old.StatusMessage == t.StatusMessage && old.PollInterval == t.PollInterval {
		return
	}
	t.UpdatedAt = c.svc.opts.Clock.Now()
	c.inv.Task = &t
	inv := c.svc.opts.Feed.publish(c.inv)
	c.inv.Version = inv.Version
}
