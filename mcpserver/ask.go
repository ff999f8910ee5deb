package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// heldCall is one gateway call as its client sees it, and the
// domain.Asker of that call: what the server asks while the call runs
// goes to this client and nobody else.
//
// A legacy client (an initialize session) is asked with a request on its
// session, while its tools/call is still open. A 2026-07-28 client is
// asked with an input_required result: the round's tools/call answers with
// the request and a sealed requestState, the call goes on running, and
// the client's retry with inputResponses delivers the answer and waits
// again, for the result or the next request.
//
// mcp-go's own multi round-trip bridge would ask legacy clients too, but
// not here: it re-invokes the handler at most 10 times per call, fulfils
// through the same session requests anyway, and would pass a state
// through our own process for nothing. The session request keeps the
// client's tools/call, its progress and its cancellation one and the same.
type heldCall struct {
	id           string // random: names the call in sealed states
	server, tool string
	client       domain.ClientIdentity
	token        string
	session      string // the legacy session's ID; "" for 2026-07-28
	modern       bool
	caps         mcp.ClientCapabilities // as the client declared them on the call

	asks chan *pendingAsk // unbuffered: Ask hands a request to the waiting round
	done chan struct{}    // closed once final and finalErr are set
	// final is the invocation as Await returned it, with its error.
	final    domain.Invocation
	finalErr error
	// whole is the result as the server sent it when the card keeps a cut
	// copy; it is handed to one answer only (answerable), and dropped from
	// calls that ended long ago (heldCalls), since it may be large.
	whole    atomic.Pointer[json.RawMessage]
	stopWait context.CancelFunc // cancels the Await, and with it the call

	mu      sync.Mutex // guards everything below
	invID   string
	round   int         // the rounds put to a 2026-07-28 client so far
	pending *pendingAsk // put to the client in round, not answered yet
	key     string      // the pending request's key in inputRequests
	reqCtx  context.Context
}

// pendingAsk is one request of the server's waiting for its answer.
type pendingAsk struct {
	req    domain.ServerRequest
	answer chan askAnswer // holds one
	// forget drops the swap of its stand-in params (see forwardRaw) once
	// it is answered; set with the round, under the held call's mu.
	forget func()
}

type askAnswer struct {
	raw json.RawMessage
	err error
}

var _ domain.Asker = (*heldCall)(nil)

// newHeld returns the held call of a tools/call arriving with ctx.
func newHeld(ctx context.Context, srv, tool string, client domain.ClientIdentity) *heldCall {
	// ctx is the tools/call a legacy client is asked through from the
	// start: the server may ask as soon as the call is sent.
	h := &heldCall{server: srv, tool: tool, client: client, token: client.Token,
		asks: make(chan *pendingAsk), done: make(chan struct{}), reqCtx: ctx}
	h.id = rand.Text()
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		h.modern = true
		if info.ClientCapabilities != nil {
			h.caps = *info.ClientCapabilities
		}
	} else if s := server.ClientSessionFromContext(ctx); s != nil {
		h.session = sessionID(ctx)
		if ci, ok := s.(server.SessionWithClientInfo); ok {
			h.caps = ci.GetClientCapabilities()
		}
	}
	return h
}

// Ask puts req to the client that made the call, when it declared it can
// answer, and returns its answer.
func (h *heldCall) Ask(ctx context.Context, req domain.ServerRequest) (json.RawMessage, error) {
	if why := h.lacks(req); why != "" {
		return nil, fmt.Errorf("%w: %s", domain.ErrNotAsked, why)
	}
	if !h.modern {
		return h.askSession(ctx, req)
	}
	p := &pendingAsk{req: req, answer: make(chan askAnswer, 1)}
	defer h.forgetSwap(p)
	select {
	case h.asks <- p:
	case <-h.done:
		return nil, fmt.Errorf("%w: the calling client %s is no longer waiting for the call", domain.ErrNotAsked, clientName(h.client))
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: the call ended before the calling client could be asked", domain.ErrNotAsked)
	}
	select {
	case a := <-p.answer:
		return a.raw, a.err
	case <-ctx.Done():
		return nil, fmt.Errorf("the calling client %s did not answer in time: %w", clientName(h.client), ctx.Err())
	}
}

// forgetSwap drops p's stand-in swap, when a round put it to the client.
func (h *heldCall) forgetSwap(p *pendingAsk) {
	h.mu.Lock()
	forget := p.forget
	h.mu.Unlock()
	if forget != nil {
		forget()
	}
}

// lacks says why the client cannot be asked req, or "" when it can.
func (h *heldCall) lacks(req domain.ServerRequest) string {
	var has bool
	var what string
	switch method := req.Method; method {
	case domain.MethodElicit:
		has, what = h.elicits(req.Params)
	case domain.MethodSample:
		has, what = h.caps.Sampling != nil, "sampling"
	case domain.MethodRoots:
		has, what = h.caps.Roots != nil, "roots"
	default:
		return fmt.Sprintf("Switchboard does not pass %q on to clients", method)
	}
	if has {
		return ""
	}
	return fmt.Sprintf("the calling client %s did not declare %s", clientName(h.client), what)
}

// elicits reports whether the client declared the elicitation mode the
// server's params ask for, and names that mode for the message. A client
// that declared elicitation with neither mode supports forms only, as
// clients from before URL mode did.
func (h *heldCall) elicits(params json.RawMessage) (bool, string) {
	var p struct {
		Mode string `json:"mode"`
	}
	_ = json.Unmarshal(params, &p)
	e := h.caps.Elicitation
	if p.Mode == "url" {
		return e != nil && e.URL != nil, "URL-mode elicitation"
	}
	return e != nil && (e.Form != nil || e.URL == nil), "elicitation"
}

// clientName is how a client names itself, for messages.
func clientName(c domain.ClientIdentity) string {
	name := c.Name
	if name == "" {
		name = "(unnamed)"
	}
	if c.Version != "" {
		name += " " + c.Version
	}
	return fmt.Sprintf("%q", name)
}

// askSession asks a legacy client with a request on its session, through
// its tools/call still open. Sampling and roots/list reach a streamable
// HTTP client only over its GET stream (mcp-go v1.2.1); without one they
// wait until the call's own deadline, as a client that never answers.
func (h *heldCall) askSession(ctx context.Context, req domain.ServerRequest) (json.RawMessage, error) {
	h.mu.Lock()
	rc := h.reqCtx
	h.mu.Unlock()
	if rc == nil || rc.Err() != nil {
		return nil, fmt.Errorf("%w: the calling client %s is no longer waiting for the call", domain.ErrNotAsked, clientName(h.client))
	}
	srv := server.ServerFromContext(rc)
	if srv == nil {
		return nil, fmt.Errorf("%w: the calling client %s has no session to ask on", domain.ErrNotAsked, clientName(h.client))
	}
	// The request travels on the client's session and stream (rc) and ends
	// when either the call (ctx) or the client's tools/call ends.
	sctx, cancel := context.WithCancel(rc)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	var (
		res any
		err error
	)
	switch req.Method {
	case domain.MethodElicit:
		p, forget, perr := elicitStandIn(rc, req)
		if perr != nil {
			return nil, perr
		}
		defer forget()
		res, err = srv.RequestElicitation(sctx, mcp.ElicitationRequest{Request: mcp.Request{Method: req.Method}, Params: p})
	case domain.MethodSample:
		p, forget, perr := sampleStandIn(rc, req)
		if perr != nil {
			return nil, perr
		}
		defer forget()
		res, err = srv.RequestSampling(sctx, mcp.CreateMessageRequest{Request: mcp.Request{Method: req.Method}, CreateMessageParams: p})
	case domain.MethodRoots:
		res, err = srv.RequestRoots(sctx, mcp.ListRootsRequest{Request: mcp.Request{Method: req.Method}})
	}
	if err != nil {
		if rc.Err() != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("%w: the calling client %s stopped waiting for the call before it answered", domain.ErrNotAsked, clientName(h.client))
		}
		return nil, fmt.Errorf("the calling client %s: %w", clientName(h.client), err)
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("the calling client's answer: %w", err)
	}
	return raw, nil
}

// unmarshalParams reads the server's params into mcp-go's type, which is
// how mcp-go sends them on; they must be an object, if any.
func unmarshalParams(req domain.ServerRequest, into any) error {
	if len(req.Params) == 0 || string(req.Params) == "null" {
		return nil
	}
	if err := json.Unmarshal(req.Params, into); err != nil {
		return fmt.Errorf("the server's %s params: %w", req.Method, err)
	}
	return nil
}

// attach makes ctx the tools/call a legacy client is asked through, until
// the returned function is called.
func (h *heldCall) attach(ctx context.Context) (detach func()) {
	h.mu.Lock()
	h.reqCtx = ctx
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		if h.reqCtx == ctx {
			h.reqCtx = nil
		}
		h.mu.Unlock()
	}
}

// await follows the invocation to its end in the background, so that a
// round can return to a 2026-07-28 client while the call goes on; the
// call is cancelled only by stopWait (the client's request ended) or its
// own deadline. ended runs once the final state is known.
func (h *heldCall) await(id string, wait domain.Waiter, ended func()) {
	h.mu.Lock()
	h.invID = id
	h.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	h.stopWait = cancel
	go func() {
		defer cancel()
		var whole json.RawMessage
		h.final, whole, h.finalErr = wait(ctx)
		if h.final.Truncated && len(whole) > len(h.final.Result) {
			h.whole.Store(&whole)
		}
		close(h.done)
		ended()
	}()
}

// answerable is the final invocation with the whole result when there
// is one: the client gets what the server sent, as it would directly.
func (h *heldCall) answerable() domain.Invocation {
	inv := h.final
	if w := h.whole.Swap(nil); w != nil {
		inv.Result, inv.Truncated = *w, false
	}
	return inv
}

// inv is the held call's invocation ID.
func (h *heldCall) inv() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.invID
}
