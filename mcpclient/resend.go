package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// errBrokenStream is how mcp-go v1.2.1 reports an event stream that ended
// before the response to its POST arrived (handleSSEResponse closing its
// channel with nothing in it). The text is all there is to go on.
const errBrokenStream = "unexpected nil response"

// repeatableMethods are the requests that change nothing on the server, so
// sending one again after its response stream broke cannot do twice what
// was meant once.
var repeatableMethods = map[string]bool{
	string(mcp.MethodToolsList):              true,
	string(mcp.MethodResourcesList):          true,
	string(mcp.MethodResourcesTemplatesList): true,
	string(mcp.MethodPromptsList):            true,
	string(mcp.MethodResourcesRead):          true,
	string(mcp.MethodPromptsGet):             true,
	string(mcp.MethodCompletionComplete):     true,
	string(mcp.MethodServerDiscover):         true,
}

// resender re-issues, once, a 2026-07-28 request whose response stream
// broke: that revision removed SSE resumability, so a new request is the
// only way to get the answer. Before it, mcp-go resumes the stream itself.
type resender struct {
	modern atomic.Bool // the negotiated revision is 2026-07-28 or later

	mu    sync.Mutex      // guards tools
	tools map[string]bool // tool name → safe to repeat, from tools/list
}

// setVersion keeps whether version is a stateless revision.
func (r *resender) setVersion(version string) {
	r.modern.Store(mcp.IsModernProtocol(version))
}

// learn records, from a tools/list result, which tools say calling them
// twice does no more than calling them once (readOnlyHint or
// idempotentHint).
func (r *resender) learn(req transport.JSONRPCRequest, resp *transport.JSONRPCResponse) {
	if req.Method != string(mcp.MethodToolsList) || resp == nil || resp.Error != nil || resp.Result == nil {
		return
	}
	var page struct {
		Tools []struct {
			Name        string `json:"name"`
			Annotations struct {
				ReadOnlyHint   *bool `json:"readOnlyHint"`
				IdempotentHint *bool `json:"idempotentHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	if json.Unmarshal(resp.Result, &page) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tools == nil {
		r.tools = make(map[string]bool)
	}
	for _, t := range page.Tools {
		a := t.Annotations
		r.tools[t.Name] = (a.ReadOnlyHint != nil && *a.ReadOnlyHint) || (a.IdempotentHint != nil && *a.IdempotentHint)
	}
}

// repeatable reports whether req may be sent again, and for a tool call
// that may not, the tool's name.
func (r *resender) repeatable(req transport.JSONRPCRequest) (bool, string) {
	if repeatableMethods[req.Method] {
		return true, ""
	}
	if req.Method != string(mcp.MethodToolsCall) {
		return false, ""
	}
	b, err := json.Marshal(req.Params)
	if err != nil {
		return false, ""
	}
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(b, &p) != nil {
		return false, ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tools[p.Name], p.Name
}

// broke reports whether err is a response stream that ended before the
// response, rather than the caller giving up, the session ending, or a
// response cut off for being too large (which a second try would only
// cut off again).
func (r *resender) broke(ctx context.Context, req transport.JSONRPCRequest, err error) bool {
	if r == nil || err == nil || ctx.Err() != nil || err.Error() != errBrokenStream {
		return false
	}
	if !r.modern.Load() && req.Method != string(mcp.MethodServerDiscover) {
		return false
	}
	if ex := exchangeFrom(ctx); ex != nil {
		ex.mu.Lock()
		tooLarge := ex.tooLarge != nil
		ex.mu.Unlock()
		if tooLarge {
			return false
		}
	}
	return true
}

// send runs send, and runs it once more when the response stream broke and
// req is safe to repeat. A tool call that is not is reported with why it
// was not sent again.
func (r *resender) send(ctx context.Context, req transport.JSONRPCRequest, send func() (*transport.JSONRPCResponse, error)) (*transport.JSONRPCResponse, error) {
	resp, err := send()
	if !r.broke(ctx, req, err) {
		r.learn(req, resp)
		return resp, err
	}
	ok, tool := r.repeatable(req)
	if !ok {
		if req.Method == string(mcp.MethodToolsCall) {
			return nil, fmt.Errorf("%w (the response stream broke; the call was not sent again because tool %q is not marked read-only or idempotent, so it may not be safe to repeat)", err, tool)
		}
		return resp, err
	}
	resp, err = send()
	r.learn(req, resp)
	return resp, err
}
