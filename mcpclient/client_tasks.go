package mcpclient

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
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

	mu    sync.Mutex // guards tasks and every task's mutable fields
	tasks []*clientTask
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

// answer answers one of the server's tasks/* requests. tasks/result waits
// for the task to end, so it must run off the transport's read loop (both
// of mcp-go's transports run each request's handler on its own goroutine).
func (ts *clientTasks) answer(req transport.JSONRPCRequest) *transport.JSONRPCResponse {
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
	ts.mu.Unlock()
	return ts.result(req.ID, t)
}

// result waits for t to end and returns the underlying request's answer
// as tasks/result does: its result marked as the task's, or its error.
func (ts *clientTasks) result(id mcp.RequestId, t *clientTask) *transport.JSONRPCResponse {
	select {
	case <-t.done:
	case <-ts.session.Done():
		return transport.NewJSONRPCErrorResponse(id, mcp.INTERNAL_ERROR, "the connection closed before the task ended", nil)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
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

// errNotObject is params or a result that is not a JSON object.
var errNotObject = errors.New("not a JSON object")

// splitTask takes the task key out of a request's params: rest is the
// params without it, as the person or the client they are put to must see
// them (a client without tasks must not be asked for one), and ttl the
// life the server asked for. Every other member keeps its bytes and order.
func splitTask(params json.RawMessage) (rest json.RawMessage, ttl time.Duration, isTask bool, err error) {
	members, err := objectMembers(params)
	if errors.Is(err, errNotObject) {
		return params, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	i := slices.IndexFunc(members, func(m member) bool { return m.key == "task" })
	if i < 0 {
		return params, 0, false, nil
	}
	var task struct {
		TTL *float64 `json:"ttl"`
	}
	if err := json.Unmarshal(members[i].value, &task); err != nil {
		return nil, 0, false, fmt.Errorf("task: %w", err)
	}
	rest, err = encodeMembers(slices.Delete(members, i, i+1))
	return rest, taskTTL(task.TTL), true, err
}

// withRelatedTask adds the related-task entry to a result's _meta, so the
// server knows which task the result is for.
func withRelatedTask(res json.RawMessage, taskID string) (json.RawMessage, error) {
	members, err := objectMembers(res)
	if err != nil {
		return nil, fmt.Errorf("the task's result: %w", err)
	}
	meta := map[string]json.RawMessage{}
	i := slices.IndexFunc(members, func(m member) bool { return m.key == "_meta" })
	if i >= 0 {
		if err := json.Unmarshal(members[i].value, &meta); err != nil {
			return nil, fmt.Errorf("the task's result _meta: %w", err)
		}
	}
	related, err := json.Marshal(map[string]string{"taskId": taskID})
	if err != nil {
		return nil, err
	}
	meta[mcp.RelatedTaskMetaKey] = related
	b, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	if i >= 0 {
		members[i].value = b
	} else {
		members = append(members, member{key: "_meta", value: b})
	}
	return encodeMembers(members)
}

// member is one member of a JSON object, its value as written.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers splits a JSON object into its members in order.
func objectMembers(obj json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return nil, errNotObject
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotObject
	}
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		members = append(members, member{key: key, value: v})
	}
	return members, nil
}

// encodeMembers writes members back as one JSON object.
func encodeMembers(members []member) (json.RawMessage, error) {
	out := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		k, err := marshalNoEscape(m.key)
		if err != nil {
			return nil, err
		}
		out = append(append(append(out, k...), ':'), m.value...)
	}
	return append(out, '}'), nil
}

// marshalNoEscape encodes v as JSON leaving "<", ">" and "&" as they are,
// as the server wrote them.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
