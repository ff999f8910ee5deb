package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/switchboard-mcp/switchboard/domain"
)

// taskWait bounds every wait in these tests; none is expected to take
// more than a moment.
const taskWait = 10 * time.Second

// taskAsker is a call's Asker that answers each request with what the
// test sends on answers, and reports each request and the end of its ctx.
type taskAsker struct {
	asked   chan domain.ServerRequest
	answers chan answerOrErr
	ended   chan error // the ctx of a request that stopped waiting
	// instant, when params contain it, is answered at once with a
	// decline, not from answers.
	instant string
}

type answerOrErr struct {
	res json.RawMessage
	err error
}

func newTaskAsker() *taskAsker {
	return &taskAsker{asked: make(chan domain.ServerRequest, 32), answers: make(chan answerOrErr, 32), ended: make(chan error, 32)}
}

func (a *taskAsker) Ask(ctx context.Context, req domain.ServerRequest) (json.RawMessage, error) {
	a.asked <- req
	if a.instant != "" && strings.Contains(string(req.Params), a.instant) {
		return json.RawMessage(`{"action":"decline"}`), nil
	}
	select {
	case ans := <-a.answers:
		return ans.res, ans.err
	case <-ctx.Done():
		a.ended <- ctx.Err()
		return nil, ctx.Err()
	}
}

// taskRig is a serverAsks with one call running, whose Asker is asker,
// and a clock the test moves.
type taskRig struct {
	t       *testing.T
	asks    *serverAsks
	handle  transport.RequestHandler
	callCtx context.Context
	asker   *taskAsker
	ids     int

	mu  sync.Mutex
	now time.Time
}

func newTaskRig(t *testing.T) *taskRig {
	t.Helper()
	session, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r := &taskRig{t: t, asker: newTaskAsker(), now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	r.asks = &serverAsks{server: "srv", log: slog.New(slog.NewTextHandler(io.Discard, nil)), calls: &inFlight{},
		sent: &sentParams{}, session: session, tasks: newClientTasks(session)}
	r.asks.tasks.now = func() time.Time {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.now
	}
	callCtx, end := r.asks.calls.start(domain.WithAsker(session, r.asker))
	t.Cleanup(end)
	r.callCtx = callCtx
	r.handle = r.asks.handler(nil, nil)
	return r
}

func (r *taskRig) advance(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now = r.now.Add(d)
}

// send delivers a request with params (decoded as mcp-go decodes them)
// on the call's ctx and returns the response.
func (r *taskRig) send(method, params string) *transport.JSONRPCResponse {
	r.t.Helper()
	var p any
	if err := json.Unmarshal([]byte(params), &p); err != nil {
		r.t.Fatal(err)
	}
	r.ids++
	resp, err := r.handle(r.callCtx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(r.ids)), Method: method, Params: p})
	if err != nil || resp == nil {
		r.t.Fatalf("%s: response %v, error %v", method, resp, err)
	}
	return resp
}

// task sends a tasks/* request naming id and decodes its Task result.
func (r *taskRig) task(method, id string) mcp.Task {
	r.t.Helper()
	resp := r.send(method, fmt.Sprintf(`{"taskId":%q}`, id))
	if resp.Error != nil {
		r.t.Fatalf("%s: error %+v", method, resp.Error)
	}
	var task mcp.Task
	if err := json.Unmarshal(resp.Result, &task); err != nil {
		r.t.Fatal(err)
	}
	return task
}

// created decodes a CreateTaskResult.
func created(t *testing.T, resp *transport.JSONRPCResponse) mcp.Task {
	t.Helper()
	if resp.Error != nil {
		t.Fatalf("error %+v, want a task", resp.Error)
	}
	var res mcp.CreateTaskResult
	if err := json.Unmarshal(resp.Result, &res); err != nil || res.Task.TaskId == "" {
		t.Fatalf("result %s, want a task: %v", resp.Result, err)
	}
	return res.Task
}

func (r *taskRig) asked() domain.ServerRequest {
	r.t.Helper()
	select {
	case req := <-r.asker.asked:
		return req
	case <-time.After(taskWait):
		r.t.Fatal("the caller was never asked")
	}
	return domain.ServerRequest{}
}
