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
// whoever made the call. Roots never change while a session lasts.
func askCapabilities() mcp.ClientCapabilities {
	return mcp.ClientCapabilities{
		Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}},
		Sampling:    &mcp.SamplingCapability{},
		Roots: &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{},
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
}

// serverAsks returns the answerer of s's server requests.
func (c *Connector) serverAsks(s *session, server string) *serverAsks {
	return &serverAsks{server: server, workspace: c.opts.Workspace, log: s.log, calls: &s.running, sent: &s.sent,
		people: c.opts.NoCallAsker, session: s.ctx}
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
// own, for every method but the three serverAsks answers. With post, the
// answer is sent through it and the transport is given none to send. A
// nil serverAsks leaves everything to next.
func (a *serverAsks) handler(next transport.RequestHandler, post func(*transport.JSONRPCResponse)) transport.RequestHandler {
	if a == nil {
		return next
	}
	return func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		if !asked(req.Method) {
			if next == nil {
				return nil, fmt.Errorf("unsupported request method: %s", req.Method)
			}
			return next(ctx, req)
		}
		resp := a.answer(ctx, req)
		if post == nil {
			return resp, nil
		}
		post(resp)
		return nil, nil
	}
}

// answer puts req to the caller of the call it belongs to and returns the
// response to send. It never fails: whatever goes wrong becomes the
// JSON-RPC error the server receives.
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
	var (
		asker  domain.Asker
		askCtx context.Context
	)
	call, running := a.calls.callOf(ctx)
	if call != nil {
		asker, askCtx = domain.AskerFrom(call.ctx), call.ctx
	}
	var res json.RawMessage
	switch {
	case call == nil && req.Method == domain.MethodElicit && a.people != nil:
		res, err = a.askPeople(req, params)
	case call == nil:
		err = notTied(req.Method, running)
	case asker == nil:
		err = fmt.Errorf("%w: the call was made without anyone to answer a server's %s", domain.ErrNotAsked, req.Method)
	default:
		// The call's own ctx, not mcp-go's request ctx: a person or a
		// client may take as long as the call itself may.
		res, err = asker.Ask(askCtx, domain.ServerRequest{Server: a.server, Method: req.Method, Params: params})
	}
	switch {
	case errors.Is(err, domain.ErrNotAsked):
		a.log.Debug("server request answered by Switchboard", "method", req.Method, "reason", err.Error())
		return a.fallback(req, err, call != nil)
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
// waits for a person, since no call's deadline ends it.
const noCallAskTimeout = 10 * time.Minute

// askPeople puts an elicitation that belongs to no call to a person, on
// the session's context (not mcp-go's request context, which a streamable
// HTTP transport cuts off after 30 seconds).
func (a *serverAsks) askPeople(req transport.JSONRPCRequest, params json.RawMessage) (json.RawMessage, error) {
	ctx := a.session
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, noCallAskTimeout)
	defer cancel()
	return a.people.Ask(ctx, domain.ServerRequest{Server: a.server, Method: req.Method, Params: params})
}

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
