package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A result whose _meta is null gets the related-task entry like any
// other, rather than panicking on the nil map it decodes to.
func TestClientTaskResultNullMeta(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t)
	task := created(t, r.send(domain.MethodElicit, `{"message":"?","task":{}}`))
	r.asked()
	r.asker.answers <- answerOrErr{res: json.RawMessage(`{"action":"decline","_meta":null}`)}
	resp := r.send("tasks/result", fmt.Sprintf(`{"taskId":%q}`, task.TaskId))
	want := `{"action":"decline","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"` + task.TaskId + `"}}}`
	if resp.Error != nil || string(resp.Result) != want {
		t.Errorf("tasks/result = %s %+v, want %s", resp.Result, resp.Error, want)
	}
}

// waiters reads how many tasks/result requests wait.
func (r *taskRig) waiters() int {
	r.asks.tasks.mu.Lock()
	defer r.asks.tasks.mu.Unlock()
	return r.asks.tasks.waiters
}

// At most maxResultWaiters tasks/result requests wait on one session; the
// next is refused at once saying why, and the waiting ones get the result once the task ends.
func TestClientTaskResultWaiters(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t)
	task := created(t, r.send(domain.MethodElicit, `{"message":"?","task":{}}`))
	r.asked()
	params := map[string]any{"taskId": task.TaskId}
	results := make(chan *transport.JSONRPCResponse, maxResultWaiters)
	for i := range maxResultWaiters {
		go func() {
			resp, _ := r.handle(r.callCtx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(100 + i)), Method: "tasks/result", Params: params})
			results <- resp
		}()
	}
	deadline := time.Now().Add(taskWait)
	for r.waiters() < maxResultWaiters {
		if time.Now().After(deadline) {
			t.Fatalf("%d tasks/result requests wait, want %d", r.waiters(), maxResultWaiters)
		}
		time.Sleep(time.Millisecond) // polling for goroutines to park, not timing the code under test
	}
	resp := r.send("tasks/result", fmt.Sprintf(`{"taskId":%q}`, task.TaskId))
	if resp.Error == nil || resp.Error.Code != mcp.INTERNAL_ERROR || !strings.Contains(resp.Error.Message, "already wait") {
		t.Errorf("tasks/result beyond the bound = %+v, want refused at once saying why", resp)
	}

	r.asker.answers <- answerOrErr{res: json.RawMessage(`{"action":"decline"}`)}
	for range maxResultWaiters {
		select {
		case resp := <-results:
			if resp == nil || resp.Error != nil || !strings.HasPrefix(string(resp.Result), `{"action":"decline","_meta":`) {
				t.Errorf("a waiting tasks/result = %+v, want the answer", resp)
			}
		case <-time.After(taskWait):
			t.Fatal("a waiting tasks/result did not return once the task ended")
		}
	}
	if got := r.waiters(); got != 0 {
		t.Errorf("%d waiters after the task ended, want 0", got)
	}
}

// A tasks/result whose request ctx ends stops waiting and says so.
func TestClientTaskResultRequestEnds(t *testing.T) {
	t.Parallel()
	r := newTaskRig(t)
	task := created(t, r.send(domain.MethodElicit, `{"message":"?","task":{}}`))
	r.asked()
	ctx, cancel := context.WithCancel(r.callCtx)
	cancel()
	resp, _ := r.handle(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(1)), Method: "tasks/result",
		Params: map[string]any{"taskId": task.TaskId}})
	if resp == nil || resp.Error == nil || resp.Error.Code != mcp.INTERNAL_ERROR || !strings.Contains(resp.Error.Message, "request ended") {
		t.Errorf("tasks/result with its request ended = %+v, want an error saying so", resp)
	}
	if got := r.waiters(); got != 0 {
		t.Errorf("%d waiters, want 0", got)
	}
}
