package domain_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// taskServer is a fake ToolCaller and Catalog for one server "srv" whose
// tool "research" requires tasks. The test decides each tasks/get answer.
type taskServer struct {
	gets chan domain.TaskState // the answers tasks/get gives, in order

	mu        sync.Mutex // guards the fields below
	plain     int        // tools/call sent without a task
	polls     int
	cancelled []string
}

func newTaskServer() *taskServer { return &taskServer{gets: make(chan domain.TaskState, 8)} }

func (f *taskServer) Status(string) (domain.Status, error) {
	return domain.Status{ServerName: "srv", State: domain.StateConnected}, nil
}

func (f *taskServer) Capabilities(string) (domain.Capabilities, error) {
	return domain.Capabilities{Tools: []domain.Tool{
		{Name: "research", TaskSupport: domain.TaskSupportRequired},
		{Name: "maybe", TaskSupport: domain.TaskSupportOptional},
	}}, nil
}

func (f *taskServer) Redactor(string) (domain.Redactor, error) { return domain.Redactor{}, nil }

func (f *taskServer) CallTimeout(string) (time.Duration, error) { return time.Hour, nil }

func (f *taskServer) CallTool(context.Context, string, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
	f.mu.Lock()
	f.plain++
	f.mu.Unlock()
	return json.RawMessage(`{"content":[]}`), nil
}

func (f *taskServer) StartTask(context.Context, string, string, json.RawMessage) (domain.TaskStart, error) {
	return domain.TaskStart{Task: &domain.TaskState{ID: "t1", Status: domain.TaskWorking,
		StatusMessage: "Gathering sources...", PollInterval: 2 * time.Second}}, nil
}

func (f *taskServer) GetTask(ctx context.Context, _, id string) (domain.TaskState, error) {
	f.mu.Lock()
	f.polls++
	f.mu.Unlock()
	select {
	case t := <-f.gets:
		return t, nil
	case <-ctx.Done():
		return domain.TaskState{}, ctx.Err()
	}
}

func (f *taskServer) TaskResult(_ context.Context, _, id string) (json.RawMessage, error) {
	return json.RawMessage(`{"content":[{"type":"text","text":"report of ` + id + `"}]}`), nil
}

func (f *taskServer) CancelTask(_ context.Context, _, id string) (domain.TaskState, error) {
	f.mu.Lock()
	f.cancelled = append(f.cancelled, id)
	f.mu.Unlock()
	return domain.TaskState{ID: id, Status: domain.TaskCancelled}, nil
}

func (f *taskServer) counts() (plain, polls int, cancelled []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.plain, f.polls, slices.Clone(f.cancelled)
}

type taskRig struct {
	srv   *taskServer
	clock *domaintest.Clock
	svc   *domain.Invocations
	feed  *domain.InvocationSubscription
	scope domain.Scope
}

func newTaskRig(t *testing.T) *taskRig {
	t.Helper()
	r := &taskRig{srv: newTaskServer(), clock: domaintest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)),
		scope: domain.Scope{User: "local", Workspace: "/w"}}
	r.svc = domain.NewInvocations(domain.InvocationsOptions{Caller: r.srv, Catalog: r.srv,
		Store: domaintest.NewInvocationStore(), Clock: r.clock})
	r.feed = r.svc.Feed().Subscribe(r.scope)
	t.Cleanup(func() {
		r.feed.Close()
		_ = r.svc.Close(context.Background())
	})
	return r
}

// next waits for the feed to publish a change of id that ok accepts.
func (r *taskRig) next(t *testing.T, id string, ok func(domain.Invocation) bool) domain.Invocation {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		batch, err := r.feed.Next(ctx)
		if err != nil {
			t.Fatalf("invocation %s: the awaited change was never published", id)
		}
		for _, inv := range batch {
			if inv.ID == id && ok(inv) {
				return inv
			}
		}
	}
}

func taskIs(status, message string) func(domain.Invocation) bool {
	return func(inv domain.Invocation) bool {
		return inv.Task != nil && inv.Task.Status == status && inv.Task.StatusMessage == message
	}
}

func TestTaskIsPolledAtTheServersIntervalUntilItCompletes(t *testing.T) {
	r := newTaskRig(t)
	inv, err := r.svc.Start(context.Background(), domain.CallRequest{Scope: r.scope, Server: "srv", Tool: "research"})
	if err != nil {
		t.Fatal(err)
	}
	first := r.next(t, inv.ID, taskIs(domain.TaskWorking, "Gathering sources..."))
	if first.Status != domain.InvocationRunning || first.Task.ID != "t1" || !first.Task.UpdatedAt.Equal(r.clock.Now()) {
		t.Errorf("first task state %+v on a %s call, want task t1 on a running call", first.Task, first.Status)
	}

	// The server asked for 2 s between polls: nothing is sent before.
	r.clock.WaitForTimer(t, 2*time.Second)
	if _, polls, _ := r.srv.counts(); polls != 0 {
		t.Fatalf("%d polls before the interval passed, want 0", polls)
	}
	r.srv.gets <- domain.TaskState{ID: "t1", Status: domain.TaskWorking, StatusMessage: "Analyzing content...",
		PollInterval: 5 * time.Second}
	r.clock.Advance(2 * time.Second)
	r.next(t, inv.ID, taskIs(domain.TaskWorking, "Analyzing content..."))

	// A new suggestion is followed from then on.
	r.clock.WaitForTimer(t, 5*time.Second)
	r.srv.gets <- domain.TaskState{ID: "t1", Status: domain.TaskCompleted}
	r.clock.Advance(5 * time.Second)
	final := r.next(t, inv.ID, func(inv domain.Invocation) bool { return inv.Status.Final() })
	if final.Status != domain.InvocationSuccess || string(final.Result) != `{"content":[{"type":"text","text":"report of t1"}]}` {
		t.Errorf("final %s with result %s, want success with the task's result", final.Status, final.Result)
	}
	if final.Task == nil || final.Task.Status != domain.TaskCompleted {
		t.Errorf("final task %+v, want completed", final.Task)
	}
	if plain, polls, cancelled := r.srv.counts(); plain != 0 || polls != 2 || len(cancelled) != 0 {
		t.Errorf("%d plain calls, %d polls, cancelled %v; want 0, 2 and none", plain, polls, cancelled)
	}
}

func TestCancellingATaskCallSendsTasksCancel(t *testing.T) {
	r := newTaskRig(t)
	inv, err := r.svc.Start(context.Background(), domain.CallRequest{Scope: r.scope, Server: "srv", Tool: "research"})
	if err != nil {
		t.Fatal(err)
	}
	r.next(t, inv.ID, taskIs(domain.TaskWorking, "Gathering sources..."))
	r.clock.WaitForTimer(t, 2*time.Second)
	got, err := r.svc.Cancel(context.Background(), r.scope, inv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != domain.InvocationCancelled || got.Task == nil || got.Task.Status != domain.TaskCancelled {
		t.Errorf("cancelled call %s with task %+v, want cancelled with the task cancelled", got.Status, got.Task)
	}
	if _, polls, cancelled := r.srv.counts(); polls != 0 || !slices.Equal(cancelled, []string{"t1"}) {
		t.Errorf("%d polls, tasks/cancel for %v; want none and t1", polls, cancelled)
	}
}

func TestOptionalTaskSupportRunsAsATaskOnlyWhenAsked(t *testing.T) {
	r := newTaskRig(t)
	plainInv, err := r.svc.Start(context.Background(), domain.CallRequest{Scope: r.scope, Server: "srv", Tool: "maybe"})
	if err != nil {
		t.Fatal(err)
	}
	done := r.next(t, plainInv.ID, func(inv domain.Invocation) bool { return inv.Status.Final() })
	if done.Task != nil {
		t.Errorf("a call not asked to run as a task has task %+v", done.Task)
	}
	asTask, err := r.svc.Start(context.Background(), domain.CallRequest{Scope: r.scope, Server: "srv", Tool: "maybe", AsTask: true})
	if err != nil {
		t.Fatal(err)
	}
	r.next(t, asTask.ID, taskIs(domain.TaskWorking, "Gathering sources..."))
	r.clock.WaitForTimer(t, 2*time.Second)
	r.srv.gets <- domain.TaskState{ID: "t1", Status: domain.TaskFailed, StatusMessage: "no sources"}
	r.clock.Advance(2 * time.Second)
	final := r.next(t, asTask.ID, func(inv domain.Invocation) bool { return inv.Status.Final() })
	if final.Task == nil || final.Task.Status != domain.TaskFailed || final.Task.StatusMessage != "no sources" {
		t.Errorf("final task %+v, want failed with the server's message", final.Task)
	}
	if final.Status != domain.InvocationError || final.Error != "the task failed: no sources" || len(final.Result) == 0 {
		t.Errorf("final %s error %q result %s, want an error saying why, with the result kept", final.Status, final.Error, final.Result)
	}
	if plain, _, _ := r.srv.counts(); plain != 1 {
		t.Errorf("%d plain calls, want 1", plain)
	}
}
