package mcpclient_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// taskSession opens a session to server-everything that runs tasks.
func taskSession(t *testing.T, cfg domain.ServerConfig) domain.TaskSession {
	t.Helper()
	s := connect(t, mcpclient.New(mcpclient.Options{}), cfg, nil)
	ts, ok := s.(domain.TaskSession)
	if !ok {
		t.Fatalf("session %T cannot run tasks", s)
	}
	return ts
}

// simulate-research-query (taskSupport "required") runs as a task: the
// server creates it, reports its stages through tasks/get, and hands the
// report over through tasks/result.
func TestEverythingRunsATask(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]func(*testing.T) domain.ServerConfig{
		"stdio": everythingStdio,
		"http":  everythingHTTP,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := taskSession(t, cfg(t))
			start, err := s.StartTask(connectCtx(t), "simulate-research-query", json.RawMessage(`{"topic":"tide pools"}`))
			if err != nil {
				t.Fatalf("StartTask: %v", err)
			}
			if start.Task == nil || start.Task.ID == "" || start.Task.Status != domain.TaskWorking {
				t.Fatalf("StartTask = %+v, want a working task", start)
			}
			if start.Task.PollInterval != time.Second {
				t.Errorf("poll interval %v, want the server's 1s", start.Task.PollInterval)
			}
			task := *start.Task
			var messages []string
			deadline := time.Now().Add(eventTimeout)
			for !task.Final() {
				if time.Now().After(deadline) {
					t.Fatalf("task still %s after %s; saw %q", task.Status, eventTimeout, messages)
				}
				time.Sleep(task.PollInterval / 4) // the server's own stages take a second each
				if task, err = s.GetTask(connectCtx(t), task.ID); err != nil {
					t.Fatalf("GetTask: %v", err)
				}
				if task.StatusMessage != "" && (len(messages) == 0 || messages[len(messages)-1] != task.StatusMessage) {
					messages = append(messages, task.StatusMessage)
				}
			}
			if task.Status != domain.TaskCompleted || len(messages) < 2 {
				t.Fatalf("task ended %s with messages %q, want completed after at least two stages", task.Status, messages)
			}
			res, err := s.TaskResult(connectCtx(t), task.ID)
			if err != nil {
				t.Fatalf("TaskResult: %v", err)
			}
			if !strings.Contains(string(res), "Research Report: tide pools") {
				t.Errorf("result %s, want the research report", res)
			}
		})
	}
}

// A task is cancelled with tasks/cancel, and the server says so.
func TestEverythingCancelsATask(t *testing.T) {
	t.Parallel()
	s := taskSession(t, everythingStdio(t))
	start, err := s.StartTask(connectCtx(t), "simulate-research-query", json.RawMessage(`{"topic":"moss"}`))
	if err != nil || start.Task == nil {
		t.Fatalf("StartTask = %+v, %v; want a task", start, err)
	}
	cancelled, err := s.CancelTask(connectCtx(t), start.Task.ID)
	if err != nil {
		t.Fatalf("CancelTask: %v", err)
	}
	if cancelled.ID != start.Task.ID || cancelled.Status != domain.TaskCancelled {
		t.Errorf("CancelTask = %+v, want task %s cancelled", cancelled, start.Task.ID)
	}
	got, err := s.GetTask(connectCtx(t), start.Task.ID)
	if err != nil || got.Status != domain.TaskCancelled {
		t.Errorf("GetTask after cancel = %+v, %v; want cancelled", got, err)
	}
}
