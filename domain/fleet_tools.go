package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

var _ ToolCaller = (*Fleet)(nil)

// CallTool sends tools/call through the server's supervised connection.
// It fails with ErrNotConnected rather than waiting for a reconnect, so a
// card says at once why nothing happened.
func (f *Fleet) CallTool(ctx context.Context, server, tool string, args json.RawMessage, progress func(Progress)) (json.RawMessage, error) {
	sess, err := f.liveSession(server)
	if err != nil {
		return nil, err
	}
	res, err := sess.CallTool(ctx, tool, args, progress)
	if err != nil {
		return nil, fmt.Errorf("call %s on %s: %w", tool, server, err)
	}
	return res, nil
}

// CallTimeout is the server's per-call deadline (callTimeoutSeconds).
func (f *Fleet) CallTimeout(server string) (time.Duration, error) {
	s, err := f.get(server)
	if err != nil {
		return 0, err
	}
	return s.config().callTimeout(), nil
}

func (f *Fleet) liveSession(server string) (Session, error) {
	s, err := f.get(server)
	if err != nil {
		return nil, err
	}
	sess := s.liveSession()
	if sess == nil {
		return nil, fmt.Errorf("server %q: %w", server, ErrNotConnected)
	}
	return sess, nil
}

var _ Catalog = (*Fleet)(nil)

// Redactor returns the redactor of one server's configured secrets.
func (f *Fleet) Redactor(server string) (Redactor, error) {
	s, err := f.get(server)
	if err != nil {
		return Redactor{}, err
	}
	return s.config().Redactor(), nil
}

func (f *Fleet) taskSession(server string) (TaskSession, error) {
	sess, err := f.liveSession(server)
	if err != nil {
		return nil, err
	}
	ts, ok := sess.(TaskSession)
	if !ok {
		return nil, fmt.Errorf("server %q: %w", server, ErrNoTasks)
	}
	return ts, nil
}

// StartTask sends tools/call as a task through the server's connection.
func (f *Fleet) StartTask(ctx context.Context, server, tool string, args json.RawMessage) (TaskStart, error) {
	ts, err := f.taskSession(server)
	if err != nil {
		return TaskStart{}, err
	}
	start, err := ts.StartTask(ctx, tool, args)
	if err != nil {
		return TaskStart{}, fmt.Errorf("call %s on %s: %w", tool, server, err)
	}
	return start, nil
}

// GetTask sends tasks/get through the server's connection.
func (f *Fleet) GetTask(ctx context.Context, server, id string) (TaskState, error) {
	ts, err := f.taskSession(server)
	if err != nil {
		return TaskState{}, err
	}
	t, err := ts.GetTask(ctx, id)
	if err != nil {
		return TaskState{}, fmt.Errorf("on %s: %w", server, err)
	}
	return t, nil
}

// TaskResult sends tasks/result through the server's connection.
func (f *Fleet) TaskResult(ctx context.Context, server, id string) (json.RawMessage, error) {
	ts, err := f.taskSession(server)
	if err != nil {
		return nil, err
	}
	res, err := ts.TaskResult(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("on %s: %w", server, err)
	}
	return res, nil
}

// CancelTask sends tasks/cancel through the server's connection.
func (f *Fleet) CancelTask(ctx context.Context, server, id string) (TaskState, error) {
	ts, err := f.taskSession(server)
	if err != nil {
		return TaskState{}, err
	}
	t, err := ts.CancelTask(ctx, id)
	if err != nil {
		return TaskState{}, fmt.Errorf("on %s: %w", server, err)
	}
	return t, nil
}
