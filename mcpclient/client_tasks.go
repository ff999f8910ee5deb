package mcpclient

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Bounds on the tasks one session runs for its server. A server that asks
// for more working tasks than maxWorkingTasks gets its request answered
// at once instead, as a client without tasks would: a person answers few
// forms at a time, and a server piling up requests must not pile up
// goroutines. Finished tasks are kept for tasks/result until their TTL
// ends, and beyond maxFinishedTasks the oldest go first.
const (
	maxWorkingTasks  = 16
	maxFinishedTasks = 64
	// defaultTaskTTL is a task's life when the server names none; it is
	// how long an elicitation outside a call may wait for a person.
	defaultTaskTTL = noCallAskTimeout
	// maxTaskTTL caps the life a server asks for, so that a forgotten
	// task does not hold a person's form or a client's model for days.
	maxTaskTTL = time.Hour
	// taskPollInterval is how often the server is told it may poll.
	taskPollInterval = time.Second
	// maxResultWaiters bounds the tasks/result requests one session keeps
	// waiting: each holds a goroutine until its task ends, and a server
	// may send any number of them for one working task.
	maxResultWaiters = 32
)

// Messages a task's status carries, for a person reading the server's
// log: they are the server's to show.
const (
	taskWaiting   = "waiting for an answer"
	taskCancelled = "cancelled at the server's request"
)

// taskCapability is the tasks capability Switchboard declares as a
// client: elicitation and sampling requests may be run as tasks, which a
// server may list and cancel. Tool calls are tasks the other way round
// (see task.go) and are not declared here.
func taskCapability() *mcp.TasksCapability {
	return &mcp.TasksCapability{
		List:   &struct{}{},
		Cancel: &struct{}{},
		Requests: &mcp.TaskRequestsCapability{
			Elicitation: &struct {
				Create *struct{} `json:"create,omitempty"`
			}{Create: &struct{}{}},
			Sampling: &struct {
				CreateMessage *struct{} `json:"createMessage,omitempty"`
			}{CreateMessage: &struct{}{}},
		},
	}
}

// taskMethod reports whether method is one of the tasks/* requests a
// server sends about the tasks its client runs.
func taskMethod(method string) bool {
	switch mcp.MCPMethod(method) {
	case mcp.MethodTasksGet, mcp.MethodTasksResult, mcp.MethodTasksList, mcp.MethodTasksCancel:
		return true
	}
	return false
}

// clientTasks is the tasks one session runs for its server (MCP
// 2025-11-25 tasks, the server asking its client): an elicitation or a
// sampling request the server sent with params.task is answered at once
// with a task, put to its caller in the background, and its outcome kept
// for the server's tasks/result. A server does this so that a person's
// slow answer does not hold a request open; the tying to the call is the
// same as for a request answered at once (serverAsks.route).
type clientTasks struct {
	session context.Context // every task's work ends with it
	now     func() time.Time

	mu    sync.Mutex // guards tasks, waiters and every task's mutable fields
	tasks []*clientTask
	// waiters counts the tasks/result requests waiting for their task.
	waiters int
}

// clientTask is one task. Its fields after done closes no longer change.
type clientTask struct {
	id      string
	created time.Time
	ttl     time.Duration

	updated time.Time
	status  mcp.TaskStatus
	message string
	// resp is the underlying request's answer once the task completed or
	// failed: its result, or the JSON-RPC error it ended with.
	resp   *transport.JSONRPCResponse
	cancel context.CancelFunc
	done   chan struct{}
}

func newClientTasks(session context.Context) *clientTasks {
	if session == nil {
		session = context.Background()
	}
	return &clientTasks{session: session, now: time.Now}
}

// taskTTL is the life of a task the server asked to keep for ttlMs: the
// default when it named none, at most maxTaskTTL.
func taskTTL(ttlMs *float64) time.Duration {
	if ttlMs == nil || *ttlMs <= 0 {
		return defaultTaskTTL
	}
	if *ttlMs >= float64(maxTaskTTL/time.Millisecond) {
		return maxTaskTTL
	}
	return time.Duration(*ttlMs) * time.Millisecond
}

// startTask runs req, put to whoever r names, as a task, and returns the
// CreateTaskResult to answer the server with; nil when the session runs
// as many tasks as it may, so the request is answered at once instead.
func (a *serverAsks) startTask(req transport.JSONRPCRequest, r askRoute, params json.RawMessage, ttl time.Duration) *transport.JSONRPCResponse {
	work := func(ctx context.Context) *transport.JSONRPCResponse {
		res, err := a.put(ctx, r, req.Method, params)
		return a.respond(req, res, err, r.call != nil)
	}
	task, ok := a.tasks.start(r.ctx, ttl, work)
	if !ok {
		a.log.Debug("server request answered at once: too many tasks", "method", req.Method, "limit", maxWorkingTasks)
		return nil
	}
	a.log.Debug("server request runs as a task", "method", req.Method, "task", task.TaskId)
	return resultResponse(req.ID, mcp.CreateTaskResult{Task: task})
}

// start runs work as a new task on a context derived from parent that
// also ends with the session, with tasks/cancel, and after ttl (when the
// task may be forgotten, its answer is no use). It reports false, running
// nothing, when maxWorkingTasks are working.
func (ts *clientTasks) start(parent context.Context, ttl time.Duration, work func(context.Context) *transport.JSONRPCResponse) (mcp.Task, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.prune()
	working := 0
	for _, t := range ts.tasks {
		if t.status == mcp.TaskStatusWorking {
			working++
		}
	}
	if working >= maxWorkingTasks {
		return mcp.Task{}, false
	}
	ctx, cancel := context.WithTimeout(parent, ttl)
	stop := context.AfterFunc(ts.session, cancel)
	now := ts.now()
	t := &clientTask{id: rand.Text(), created: now, updated: now, ttl: ttl, status: mcp.TaskStatusWorking,
		message: taskWaiting, cancel: cancel, done: make(chan struct{})}
	ts.tasks = append(ts.tasks, t)
	go func() {
		defer stop()
		defer cancel()
		ts.finish(t, work(ctx))
	}()
	return t.view(), true
}

// finish records a task's outcome, unless it was cancelled first: a
// failure is kept as the error the request would have been answered with.
func (ts *clientTasks) finish(t *clientTask, resp *transport.JSONRPCResponse) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t.status.IsTerminal() {
		return
	}
	t.resp, t.updated, t.status, t.message = resp, ts.now(), mcp.TaskStatusCompleted, ""
	if resp.Error != nil {
		t.status, t.message = mcp.TaskStatusFailed, resp.Error.Message
	}
	close(t.done)
}

// prune forgets the finished tasks whose TTL has ended, and the oldest
// finished ones beyond maxFinishedTasks. A working task stays until its
// work ends (by its TTL at the latest). ts.mu must be held.
func (ts *clientTasks) prune() {
	now := ts.now()
	finished := 0
	for _, t := range ts.tasks {
		if t.status.IsTerminal() {
			finished++
		}
	}
	ts.tasks = slices.DeleteFunc(ts.tasks, func(t *clientTask) bool {
		if !t.status.IsTerminal() {
			return false
		}
		if finished > maxFinishedTasks || !now.Before(t.created.Add(t.ttl)) {
			finished--
			return true
		}
		return false
	})
}

// view is the task as the protocol shows it. ts.mu must be held.
func (t *clientTask) view() mcp.Task {
	ttl, poll := t.ttl.Milliseconds(), taskPollInterval.Milliseconds()
	return mcp.Task{TaskId: t.id, Status: t.status, StatusMessage: t.message,
		CreatedAt: t.created.UTC().Format(time.RFC3339Nano), LastUpdatedAt: t.updated.UTC().Format(time.RFC3339Nano),
		TTL: &ttl, PollInterval: &poll}
}
