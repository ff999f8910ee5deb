package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

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
