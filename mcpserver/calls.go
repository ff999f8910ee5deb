package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// clientIdentity is who is calling: the clientInfo of a legacy session's
// initialize, or of a 2026-07-28 request's _meta, and the token's name.
func (g *Gateway) clientIdentity(ctx context.Context) domain.ClientIdentity {
	var id domain.ClientIdentity
	if g.opts.TokenName != nil {
		id.Token = g.opts.TokenName(ctx)
	}
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil {
		id.Name, id.Version = info.ClientInfo.Name, info.ClientInfo.Version
		return id
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		ci := s.GetClientInfo()
		id.Name, id.Version = ci.Name, ci.Version
	}
	return id
}

// callTool returns the handler of one exposed tool: the call runs through
// the invocation service like a person's, so it is a card, and the
// server's result goes back to the client as the server sent it. Failures
// are tool errors the model can read, never JSON-RPC errors.
func (ep *endpoint) callTool(srv, tool string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.RequestState != "" || len(req.Params.InputResponses) > 0 {
			return ep.resume(ctx, srv, tool, req), nil
		}
		g := ep.g
		args := req.Params.RawArguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		call := domain.CallRequest{
			Scope: g.opts.Scope, Server: srv, Tool: tool, Arguments: args,
			Source: domain.SourceGateway, Client: g.clientIdentity(ctx), Forwarded: true,
		}
		h := newHeld(ctx, srv, tool, call.Client)
		call.Asker = h
		started, stop := g.relayProgress(ctx, req)
		inv, waiter, err := g.opts.Invocations.StartWhole(ctx, call)
		if err != nil {
			stop(false)
			return g.refused(srv, tool, err), nil
		}
		started(inv.ID)
		h.await(inv.ID, waiter, func() { ep.held.end(h) })
		return ep.wait(ctx, h, stop), nil
	}
}

// relayProgress forwards a call's progress to req's progress token, when
// it has one (see forwardProgress); started names the call once it
// exists.
func (g *Gateway) relayProgress(ctx context.Context, req mcp.CallToolRequest) (started func(string), stop func(final bool)) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return func(string) {}, func(bool) {}
	}
	return g.forwardProgress(ctx, req.Params.Meta.ProgressToken)
}

// refused explains a call that never started, naming the server's state
// when that is why.
func (g *Gateway) refused(srv, tool string, err error) *mcp.CallToolResult {
	if nr := (*domain.NotReadyError)(nil); errors.As(err, &nr) {
		return toolError(fmt.Sprintf("%v. Tool %q was not called.", err, tool))
	}
	if st, serr := g.opts.Fleet.Status(srv); serr == nil && st.State != domain.StateConnected {
		return toolError(fmt.Sprintf("server %q is %s; tool %q was not called: %v", srv, st.State, tool, err))
	}
	return toolError(fmt.Sprintf("tool %q of server %q was not called: %v", tool, srv, err))
}

// answer turns an ended invocation into the client's result.
func (g *Gateway) answer(srv, tool string, inv domain.Invocation, err error) *mcp.CallToolResult {
	if err != nil {
		return toolError(fmt.Sprintf("tool %q of server %q: %v", tool, srv, err))
	}
	if len(inv.Result) > 0 && !inv.Truncated {
		res, rerr := toolResult(inv.Result)
		if rerr == nil {
			return res
		}
		g.opts.Log.Warn("gateway cannot pass a result on", "server", srv, "tool", tool, "invocation", inv.ID, "error", rerr)
		return toolError(fmt.Sprintf("tool %q of server %q answered with something that is not a tool result", tool, srv))
	}
	switch {
	case inv.Truncated:
		return toolError(fmt.Sprintf("the result of tool %q of server %q was larger than Switchboard keeps (%d bytes); see invocation %s in Switchboard", tool, srv, inv.ResultSize, inv.ID))
	case inv.Status == domain.InvocationCancelled:
		return toolError(fmt.Sprintf("the call of tool %q of server %q was cancelled", tool, srv))
	}
	msg := inv.Error
	if msg == "" {
		msg = string(inv.Status)
	}
	if st, serr := g.opts.Fleet.Status(srv); serr == nil && st.State != domain.StateConnected {
		return toolError(fmt.Sprintf("server %q is %s: %s", srv, st.State, msg))
	}
	return toolError(fmt.Sprintf("tool %q of server %q failed: %s", tool, srv, msg))
}

// forwardProgress relays the progress the invocation service records for
// one call to the client's progress token, from the feed every change is
// published to: a subscription to that call alone, taken once started
// names it, and the call's state at that moment for whatever happened
// before. stop(true), for a call that has ended, waits until the relay
// has seen it end (the feed never drops a status, and the final snapshot
// carries the last progress), so no progress is lost to a race with the
// result; stop(false), for one that goes on without the client (held for
// approval), does not wait. Either way it then ends the relay.
func (g *Gateway) forwardProgress(ctx context.Context, token mcp.ProgressToken) (started func(string), stop func(final bool)) {
	srv := server.ServerFromContext(ctx)
	idc := make(chan string, 1)
	ctx, cancel := context.WithCancel(ctx)
	ended := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var id string
		select {
		case id = <-idc:
		case <-ctx.Done():
			return
		}
		sub := g.opts.Invocations.Feed().SubscribeCall(g.opts.Scope, id)
		defer sub.Close()
		r := progressRelay{g: g, srv: srv, token: token}
		defer r.stopWaiting()
		// Taken after subscribing, the state holds every change the
		// subscription missed; the changes it then delivers that are no
		// newer are skipped, so progress never goes back.
		if inv, err := g.opts.Invocations.Get(ctx, g.opts.Scope, id); err == nil && r.relay(ctx, inv) {
			close(ended)
			return
		}
		for {
			invs, err := sub.Next(ctx)
			if err != nil {
				return
			}
			for _, inv := range invs {
				if r.relay(ctx, inv) {
					close(ended)
					return
				}
			}
		}
	}()
	var once bool
	return func(id string) { once = true; idc <- id }, func(final bool) {
		if once && final {
			select {
			case <-ended:
			case <-ctx.Done():
			}
		}
		cancel()
		<-done
	}
}

// progressRelay turns one call's changes into the client's progress
// notifications; only forwardProgress's goroutine uses it.
type progressRelay struct {
	g       *Gateway
	srv     *server.MCPServer
	token   mcp.ProgressToken
	version uint64           // the newest change relayed
	last    *domain.Progress // the last progress sent
	waiting func()           // ends the keep-alive of a call held for approval; nil when none runs
}

// relay sends what inv says that the client has not heard yet and reports
// whether the call has ended.
func (r *progressRelay) relay(ctx context.Context, inv domain.Invocation) bool {
	if inv.Version <= r.version {
		return false
	}
	r.version = inv.Version
	held := inv.Status == domain.InvocationAwaitingApproval
	switch {
	case held && r.waiting == nil:
		r.waiting = r.g.keepWaiting(ctx, r.srv, r.token)
	case !held:
		r.stopWaiting()
	}
	if p := inv.Progress; p != nil && (r.last == nil || *r.last != *p) {
		r.last = p
		params := map[string]any{"progressToken": r.token, "progress": p.Progress}
		if p.Total > 0 {
			params["total"] = p.Total
		}
		if p.Message != "" {
			params["message"] = p.Message
		}
		if r.srv != nil {
			_ = r.srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params)
		}
	}
	return inv.Status.Final()
}

func (r *progressRelay) stopWaiting() {
	if r.waiting != nil {
		r.waiting()
		r.waiting = nil
	}
}

// approvalKeepAlive is how often a client whose call awaits a person's
// approval hears that it still does: clients give up on a call that has
// been silent for about a minute, and any progress resets their clock.
const approvalKeepAlive = 10 * time.Second

// waitingStep is the progress of each keep-alive: tiny and growing, so the
// values a client sees still increase when the server's own progress
// follows, as MCP requires, without claiming any real part of the work.
const waitingStep = 1e-6

// keepWaiting tells the client at once, and then every approvalKeepAlive,
// that its call is waiting for approval in Switchboard, until the returned
// stop is called or ctx ends.
func (g *Gateway) keepWaiting(ctx context.Context, srv *server.MCPServer, token mcp.ProgressToken) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for n := 1; ; n++ {
			if srv != nil {
				_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
					"progressToken": token, "progress": float64(n) * waitingStep,
					"message": "waiting for approval in Switchboard",
				})
			}
			t := g.opts.Clock.NewTimer(approvalKeepAlive)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C():
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// readResource returns the handler that reads a URI from one server.
func (ep *endpoint) readResource(srv string) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		raw, err := ep.g.opts.Fleet.ReadResource(ctx, srv, req.Params.URI)
		if err != nil {
			return nil, requestError(err)
		}
		if err := keepReadMeta(&req, raw); err != nil {
			return nil, fmt.Errorf("%w: %w", errNotObject, err)
		}
		return resourceContents(raw)
	}
}

// getPrompt returns the handler of one exposed prompt.
func (ep *endpoint) getPrompt(srv, prompt string) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		raw, err := ep.g.opts.Fleet.GetPrompt(ctx, srv, prompt, req.Params.Arguments)
		if err != nil {
			return nil, requestError(err)
		}
		return promptResult(raw)
	}
}

// requestError keeps a server's own JSON-RPC error recognisable to the
// client; anything else is Switchboard's explanation.
func requestError(err error) error {
	var se *domain.ServerError
	if errors.As(err, &se) {
		return fmt.Errorf("%s", se.Message)
	}
	return err
}

// completer routes completion/complete to the server that owns the prompt
// or resource template.
type completer struct{ ep *endpoint }

func (c completer) CompletePromptArgument(ctx context.Context, name string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	srv, prompt := c.ep.server, name
	if srv == "" {
		p, ok := c.ep.cat.Load().Prompt(name)
		if !ok {
			return nil, fmt.Errorf("prompt %q: %w", name, domain.ErrPromptNotFound)
		}
		srv, prompt = p.Server, p.Prompt.Name
	}
	return c.complete(ctx, srv, domain.CompletionRef{Type: domain.RefPrompt, Name: prompt}, arg, cc)
}

func (c completer) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	srv := c.ep.server
	if srv == "" {
		cat := c.ep.cat.Load()
		s, ok := cat.TemplateServer(uri)
		if !ok {
			if s, ok = cat.ResourceServer(uri); !ok {
				return nil, fmt.Errorf("resource %q: %w", uri, domain.ErrNotFound)
			}
		}
		srv = s
	}
	return c.complete(ctx, srv, domain.CompletionRef{Type: domain.RefResource, URI: uri}, arg, cc)
}

func (c completer) complete(ctx context.Context, srv string, ref domain.CompletionRef, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	raw, err := c.ep.g.opts.Fleet.Complete(ctx, srv, domain.CompleteRequest{Ref: ref, Argument: arg.Name, Value: arg.Value, Context: cc.Arguments})
	if err != nil {
		return nil, requestError(err)
	}
	return completion(raw)
}
