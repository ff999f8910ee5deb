package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// answer answers one of the server's tasks/* requests. tasks/result waits
// for the task to end, or for ctx (the request's) to, so it must run off
// the transport's read loop (both of mcp-go's transports run each
// request's handler on its own goroutine).
func (ts *clientTasks) answer(ctx context.Context, req transport.JSONRPCRequest) *transport.JSONRPCResponse {
	if mcp.MCPMethod(req.Method) == mcp.MethodTasksList {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		ts.prune()
		list := mcp.ListTasksResult{Tasks: []mcp.Task{}}
		for _, t := range ts.tasks {
			list.Tasks = append(list.Tasks, t.view())
		}
		return resultResponse(req.ID, list)
	}
	id, err := taskIDOf(req.Params)
	if err != nil {
		return transport.NewJSONRPCErrorResponse(req.ID, mcp.INVALID_PARAMS, fmt.Sprintf("%s: %v", req.Method, err), nil)
	}
	ts.mu.Lock()
	ts.prune()
	t := ts.find(id)
	if t == nil {
		ts.mu.Unlock()
		return transport.NewJSONRPCErrorResponse(req.ID, mcp.INVALID_PARAMS,
			fmt.Sprintf("%s: Switchboard runs no task %q for this server (it may have expired)", req.Method, id), nil)
	}
	switch mcp.MCPMethod(req.Method) {
	case mcp.MethodTasksGet:
		defer ts.mu.Unlock()
		return resultResponse(req.ID, t.view())
	case mcp.MethodTasksCancel:
		defer ts.mu.Unlock()
		if t.status.IsTerminal() {
			return transport.NewJSONRPCErrorResponse(req.ID, mcp.INVALID_PARAMS,
				fmt.Sprintf("tasks/cancel: task %q has already ended (%s)", id, t.status), nil)
		}
		t.status, t.message, t.updated = mcp.TaskStatusCancelled, taskCancelled, ts.now()
		close(t.done)
		t.cancel() // the person's form or the client's request is withdrawn
		return resultResponse(req.ID, t.view())
	}
	defer ts.mu.Unlock()
	if !t.status.IsTerminal() {
		if ts.waiters >= maxResultWaiters {
			return transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR,
				fmt.Sprintf("tasks/result: %d tasks/result requests already wait on this connection; poll with tasks/get instead", maxResultWaiters), nil)
		}
		ts.waiters++
		ts.mu.Unlock()
		err := ts.wait(ctx, t)
		ts.mu.Lock()
		ts.waiters--
		if err != nil {
			return transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, fmt.Sprintf("tasks/result: %v", err), nil)
		}
	}
	return ts.result(req.ID, t)
}

// wait waits for t to end, for the session to close, or for ctx to end.
func (ts *clientTasks) wait(ctx context.Context, t *clientTask) error {
	select {
	case <-t.done:
		return nil
	case <-ts.session.Done():
		return errors.New("the connection closed before the task ended")
	case <-ctx.Done():
		return fmt.Errorf("the request ended before the task did: %w", context.Cause(ctx))
	}
}

// result returns the underlying request's answer of t, which has ended,
// as tasks/result does: its result marked as the task's, or its error.
// ts.mu must be held.
func (ts *clientTasks) result(id mcp.RequestId, t *clientTask) *transport.JSONRPCResponse {
	switch {
	case t.status == mcp.TaskStatusCancelled:
		return transport.NewJSONRPCErrorResponse(id, mcp.INVALID_REQUEST,
			fmt.Sprintf("tasks/result: task %q was cancelled before it ended", t.id), nil)
	case t.resp.Error != nil:
		return transport.NewJSONRPCErrorResponse(id, t.resp.Error.Code, t.resp.Error.Message, t.resp.Error.Data)
	}
	res, err := withRelatedTask(t.resp.Result, t.id)
	if err != nil {
		return transport.NewJSONRPCErrorResponse(id, mcp.INTERNAL_ERROR, fmt.Sprintf("tasks/result: %v", err), nil)
	}
	return transport.NewJSONRPCResultResponse(id, res)
}

// find returns the task named id, or nil. ts.mu must be held.
func (ts *clientTasks) find(id string) *clientTask {
	for _, t := range ts.tasks {
		if t.id == id {
			return t
		}
	}
	return nil
}

// taskIDOf reads the taskId a tasks/get, tasks/result or tasks/cancel
// request names.
func taskIDOf(params any) (string, error) {
	raw, err := rawParams(params)
	if err != nil {
		return "", fmt.Errorf("read params: %w", err)
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return "", fmt.Errorf("read params: %w", err)
		}
	}
	if p.TaskID == "" {
		return "", errors.New("no taskId")
	}
	return p.TaskID, nil
}

// resultResponse is a response carrying v, which always encodes.
func resultResponse(id mcp.RequestId, v any) *transport.JSONRPCResponse {
	b, err := json.Marshal(v)
	if err != nil {
		return transport.NewJSONRPCErrorResponse(id, mcp.INTERNAL_ERROR, err.Error(), nil)
	}
	return transport.NewJSONRPCResultResponse(id, b)
}
