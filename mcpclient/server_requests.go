package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// askCapabilities is what Switchboard declares it can answer: a server's
// elicitation (both modes), sampling and roots requests, which it puts to
// whoever made the call, and the first two also as tasks (clientTasks), so
// that a server offers a capable client everything it has (server-everything
// keeps its async elicitation and sampling tools for such clients). Roots
// never change while a session lasts.
//
// The same set rides in every 2026-07-28 request's _meta, where servers
// send no requests of their own and tasks are an extension a server would
// negotiate separately: there the tasks entry asks nothing of the server.
// It is declared anyway because mcp-go fixes the capabilities before it
// knows which era the server speaks, and a 2026-07-28 first attempt that
// falls back to initialize must still declare it.
func askCapabilities() mcp.ClientCapabilities {
	return mcp.ClientCapabilities{
		Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}},
		Sampling:    &mcp.SamplingCapability{},
		Roots: &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{},
		Tasks: taskCapability(),
	}
}

// serverAsks answers the requests a server sends its client during a call.
// It takes them from mcp-go before mcp-go decodes them into its own types,
// so that what reaches the caller is what the server asked.
type serverAsks struct {
	server    string
	workspace string
	log       *slog.Logger
	calls     *inFlight
	sent      *sentParams
	// people answers an elicitation that belongs to no call
	// (Options.NoCallAsker), on session, which ends with the connection;
	// nil refuses it.
	people  domain.Asker
	session context.Context
	// tasks runs the elicitations and sampling requests a server asked to
	// have run as tasks, and answers its tasks/* requests about them.
	tasks *clientTasks
}

// serverAsks returns the answerer of s's server requests.
func (c *Connector) serverAsks(s *session, server string) *serverAsks {
	return &serverAsks{server: server, workspace: c.opts.Workspace, log: s.log, calls: &s.running, sent: &s.sent,
		people: c.opts.NoCallAsker, session: s.ctx, tasks: newClientTasks(s.ctx)}
}

// asked reports whether method is one serverAsks answers; everything else
// (ping) stays with mcp-go.
func asked(method string) bool {
	switch method {
	case domain.MethodElicit, domain.MethodSample, domain.MethodRoots:
		return true
	}
	return false
}

// handler is the request handler mcp-go's transport gets: next, mcp-go's
// own, for every method but the three serverAsks answers and the tasks/*
// requests about the ones it runs as tasks (mcp-go's client knows none of
// them). With post, the answer is sent through it and the transport is
// given none to send. A nil serverAsks leaves everything to next.
func (a *serverAsks) handler(next transport.RequestHandler, post func(*transport.JSONRPCResponse)) transport.RequestHandler {
	if a == nil {
		return next
	}
	return func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		var resp *transport.JSONRPCResponse
		switch {
		case asked(req.Method):
			resp = a.answer(ctx, req)
		case a.tasks != nil && taskMethod(req.Method):
			resp = a.tasks.answer(ctx, req)
		case next == nil:
			return nil, fmt.Errorf("unsupported request method: %s", req.Method)
		default:
			return next(ctx, req)
		}
		if post == nil {
			return resp, nil
		}
		post(resp)
		return nil, nil
	}
}

// answer puts req to the caller of the call it belongs to and returns the
// response to send. It never fails: whatever goes wrong becomes the
// JSON-RPC error the server receives. A request the server asked to have
// run as a task is answered at once with the task, when someone can be
// asked and the task store has room (see startTask).
func (a *serverAsks) answer(ctx context.Context, req transport.JSONRPCRequest) *transport.JSONRPCResponse {
	params, ok := a.sent.take(req.ID)
	var err error
	if !ok {
		params, err = rawParams(req.Params)
	}
	if err != nil {
		return transport.NewJSONRPCErrorResponse(req.ID, mcp.INVALID_PARAMS,
			fmt.Sprintf("Switchboard could not read the %s params: %v", req.Method, err), nil)
	}
	r := a.route(ctx, req.Method)
	if req.Method != domain.MethodRoots && r.err == nil {
		rest, ttl, isTask, err := splitTask(params)
		if err != nil {
			return transport.NewJSONRPCErrorResponse(req.ID, mcp.INVALID_PARAMS,
				fmt.Sprintf("Switchboard could not read the %s params: %v", req.Method, err), nil)
		}
		if isTask {
			if resp := a.startTask(req, r, rest, ttl); resp != nil {
				return resp
			}
			// No room for another task: answered here, as a client
			// without tasks would, and the task is not passed on.
			params = rest
		}
	}
	res, err := a.put(r.ctx, r, req.Method, params)
	return a.respond(req, res, err, r.call != nil)
}

// askRoute is who a server's request is put to, decided when it arrives:
// the call in flight then (or a person, for an elicitation that belongs to
// no call), even when the asking happens later, in a task.
type askRoute struct {
	call   *runningCall
	asker  domain.Asker
	people bool
	// ctx is what the asking runs on: the call's own ctx, since a person
	// or a client may take as long as the call itself may (not mcp-go's
	// request ctx), or the session's for a person asked outside any call.
	ctx context.Context
	// err, wrapping domain.ErrNotAsked, says why nobody can be asked.
	err error
}

// route finds who answers a server's method request that arrived on ctx.
func (a *serverAsks) route(ctx context.Context, method string) askRoute {
	call, running := a.calls.callOf(ctx)
	switch {
	case call == nil && method == domain.MethodElicit && a.people != nil:
		sctx := a.session
		if sctx == nil {
			sctx = context.Background()
		}
		return askRoute{people: true, ctx: sctx}
	case call == nil:
		return askRoute{err: notTied(method, running)}
	}
	r := askRoute{call: call, asker: domain.AskerFrom(call.ctx), ctx: call.ctx}
	if r.asker == nil {
		r.err = fmt.Errorf("%w: the call was made without anyone to answer a server's %s", domain.ErrNotAsked, method)
	}
	return r
}

// put asks whoever r names, on ctx (r.ctx or one derived from it).
func (a *serverAsks) put(ctx context.Context, r askRoute, method string, params json.RawMessage) (json.RawMessage, error) {
	sr := domain.ServerRequest{Server: a.server, Method: method, Params: params}
	switch {
	case r.err != nil:
		return nil, r.err
	case r.people:
		// No call's deadline ends it, so it is bounded here.
		ctx, cancel := context.WithTimeout(ctx, noCallAskTimeout)
		defer cancel()
		return a.people.Ask(ctx, sr)
	default:
		return r.asker.Ask(ctx, sr)
	}
}

// respond turns what the asking gave into the response to send: nobody
// asked becomes Switchboard's own answer (fallback), any other failure the
// error the answerer gave, and a result must be JSON.
func (a *serverAsks) respond(req transport.JSONRPCRequest, res json.RawMessage, err error, tied bool) *transport.JSONRPCResponse {
	switch {
	case errors.Is(err, domain.ErrNotAsked):
		a.log.Debug("server request answered by Switchboard", "method", req.Method, "reason", err.Error())
		return a.fallback(req, err, tied)
	case err != nil:
		return errorResponse(req.ID, err)
	case len(bytes.TrimSpace(res)) == 0:
		// A result is required; an answerer that gave none said nothing.
		res = json.RawMessage(`{}`)
	case !json.Valid(res):
		// It could not be sent, and the server would wait for it forever.
		return transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR,
			fmt.Sprintf("the answer to the server's %s was not JSON", req.Method), nil)
	}
	return transport.NewJSONRPCResultResponse(req.ID, res)
}

// noCallAskTimeout bounds how long an elicitation that belongs to no call
// waits for a person, since no call's deadline ends it. It runs on the
// session's context, not mcp-go's request context, which a streamable
// HTTP transport cuts off after 30 seconds.
const noCallAskTimeout = 10 * time.Minute

// notTied says why a request could not be tied to one call.
func notTied(method string, running int) error {
	if running < 0 {
		return fmt.Errorf("%w: the server sent %s while answering a request that is not a tool call (a read, a prompt or a completion), which has nobody to ask", domain.ErrNotAsked, method)
	}
	if running == 0 {
		return fmt.Errorf("%w: the server sent %s while no call was running, so there was nobody to ask", domain.ErrNotAsked, method)
	}
	return fmt.Errorf("%w: the server sent %s while %d calls were running on the connection, and it did not say for which, so Switchboard asked none of their callers",
		domain.ErrNotAsked, method, running)
}

// fallback is Switchboard's own answer when nobody could be asked:
// elicitation and sampling are refused with the reason (an invalid
// request, since no client can serve it). roots/list asked during one
// call (tied) gets the workspace Switchboard serves, the context that
// call was made in; asked outside any call (a server starting up) it gets
// no roots. No roots, rather than an error or the workspace, lets a server
// that takes its directories from roots (server-filesystem, Playwright
// MCP) keep the ones it was started with: a user-level server set up for
// ~/Documents must not be confined to whichever project Switchboard runs
// in.
func (a *serverAsks) fallback(req transport.JSONRPCRequest, why error, tied bool) *transport.JSONRPCResponse {
	if req.Method == domain.MethodRoots {
		dir := a.workspace
		if !tied {
			dir = ""
		}
		return transport.NewJSONRPCResultResponse(req.ID, workspaceRoots(dir))
	}
	return transport.NewJSONRPCErrorResponse(req.ID, mcp.INVALID_REQUEST, why.Error(), nil)
}

// workspaceRoots is a roots/list result holding dir as one file:// root,
// or no roots without one.
func workspaceRoots(dir string) json.RawMessage {
	type root struct {
		URI  string `json:"uri"`
		Name string `json:"name,omitempty"`
	}
	roots := []root{}
	if dir != "" {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Clean(dir))}
		roots = append(roots, root{URI: u.String(), Name: filepath.Base(dir)})
	}
	b, _ := json.Marshal(struct {
		Roots []root `json:"roots"`
	}{roots})
	return b
}

// errorResponse sends an answerer's failure back to the server: a
// *domain.ServerError (an AI client's own JSON-RPC error) keeps its code
// and message, anything else is an internal error saying what happened.
func errorResponse(id mcp.RequestId, err error) *transport.JSONRPCResponse {
	var se *domain.ServerError
	if errors.As(err, &se) && se.Code != 0 {
		return transport.NewJSONRPCErrorResponse(id, se.Code, se.Message, nil)
	}
	return transport.NewJSONRPCErrorResponse(id, mcp.INTERNAL_ERROR, err.Error(), nil)
}

// rawParams returns a request's params as JSON when sentParams has not
// kept the bytes (a message too large to tap). Both mcp-go transports
// decode an incoming request's params into plain Go values (maps,
// float64s) rather than its typed structs, so encoding them again keeps
// every field, unknown ones included, and changes only key order and
// numbers beyond a float64's precision.
func rawParams(p any) (json.RawMessage, error) {
	switch v := p.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return v, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "<" stays "<", as the server wrote it
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
