package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// defaultStateLife bounds a requestState when the server's call timeout
// cannot be read (it was removed meanwhile).
const defaultStateLife = 10 * time.Minute

// wait serves one round of h to the client whose tools/call is ctx: the
// call's result once it ends; for a 2026-07-28 client, the server's next
// request as an input_required result, the call going on meanwhile; and
// when the client gives up on its tools/call, the call cancelled, as any
// gateway call is.
func (ep *endpoint) wait(ctx context.Context, h *heldCall, stop func(final bool)) *mcp.CallToolResult {
	defer h.attach(ctx)()
	for {
		select {
		case <-h.done:
			return ep.finish(ctx, h, stop)
		case p := <-h.asks:
			if ctx.Err() != nil {
				// The client left as the request came: nobody will see it.
				p.answer <- askAnswer{err: fmt.Errorf("%w: the calling client %s stopped waiting for the call", domain.ErrNotAsked, clientName(h.client))}
				continue
			}
			res, err := ep.inputRequired(ctx, h, p)
			if err != nil {
				p.answer <- askAnswer{err: err}
				continue
			}
			// The call goes on without a request to relay progress to
			// until the client's retry brings one.
			stop(false)
			return res
		case <-ctx.Done():
			h.stopWait()
			<-h.done
			return ep.finish(ctx, h, stop)
		}
	}
}

// finish answers with the ended call (or one held for approval longer
// than the hold).
func (ep *endpoint) finish(ctx context.Context, h *heldCall, stop func(final bool)) *mcp.CallToolResult {
	// A call still held for approval goes on without this client, which
	// is answered now: the relay must not wait for its end.
	stop(h.final.Status.Final())
	if h.finalErr != nil && h.final.ID == "" {
		return ep.g.refused(h.server, h.tool, h.finalErr)
	}
	return ep.g.answerTo(ctx, h.server, h.tool, h.answerable(), h.finalErr)
}

// inputRequired makes p the next round put to a 2026-07-28 client: an
// input_required result whose requestState, sealed, names the call and
// the round. The request's params are the server's own, swapped in as the
// result is written (forwardRaw); ctx is the client's tools/call.
func (ep *endpoint) inputRequired(ctx context.Context, h *heldCall, p *pendingAsk) (*mcp.CallToolResult, error) {
	h.mu.Lock()
	round := h.round + 1
	h.mu.Unlock()
	life, err := ep.g.opts.Fleet.CallTimeout(h.server)
	if err != nil || life <= 0 {
		life = defaultStateLife
	}
	// A retry that comes after the call ended still gets its result, for
	// as long as the ended call is remembered.
	expires := ep.g.opts.Clock.Now().Add(life + endedGrace)
	state, err := ep.sealer.seal(requestState{Held: h.id, Round: round, Token: h.token, Session: h.session, Expires: expires.UnixMilli()})
	if err != nil {
		return nil, err
	}
	b := server.NewInputRequestBuilder(state)
	var key string
	forget := func() {}
	switch p.req.Method {
	case domain.MethodElicit:
		params, f, err := elicitStandIn(ctx, p.req)
		if err != nil {
			return nil, err
		}
		key, forget = fmt.Sprintf("elicitation-%d", round), f
		b.Elicit(key, params)
	case domain.MethodSample:
		params, f, err := sampleStandIn(ctx, p.req)
		if err != nil {
			return nil, err
		}
		key, forget = fmt.Sprintf("sampling-%d", round), f
		b.Sample(key, params)
	case domain.MethodRoots:
		key = fmt.Sprintf("roots-%d", round)
		b.Roots(key)
	default:
		return nil, fmt.Errorf("Switchboard does not pass %q on to clients", p.req.Method)
	}
	h.mu.Lock()
	h.round, h.pending, h.key = round, p, key
	p.forget = forget
	h.mu.Unlock()
	ep.held.keep(h)
	return b.ToolResult(), nil
}

// resume serves a 2026-07-28 client's retry: it checks the sealed
// requestState is this client's, for the round still open, hands the
// answer to the server's waiting request, and waits again. A retry of a
// call that has ended gets its result.
func (ep *endpoint) resume(ctx context.Context, srv, tool string, req mcp.CallToolRequest) *mcp.CallToolResult {
	refuse := func(why string) *mcp.CallToolResult {
		return toolError(fmt.Sprintf("tool %q of server %q was not resumed: %s", tool, srv, why))
	}
	st, err := ep.sealer.open(req.Params.RequestState, ep.g.opts.Clock.Now())
	if err != nil {
		return refuse(err.Error())
	}
	client := ep.g.clientIdentity(ctx)
	if st.Token != client.Token || st.Session != sessionID(ctx) {
		return refuse("the requestState was issued to another client")
	}
	h, ok := ep.held.find(st.Held)
	if !ok {
		return refuse("Switchboard no longer knows the call (it ended a while ago, or Switchboard restarted)")
	}
	if h.server != srv || h.tool != tool {
		return refuse("the requestState belongs to a call of another tool")
	}
	started, stop := ep.g.relayProgress(ctx, req)
	started(h.inv())
	select {
	case <-h.done:
		return ep.finish(ctx, h, stop)
	default:
	}
	h.mu.Lock()
	if st.Round != h.round || h.pending == nil {
		h.mu.Unlock()
		stop(false)
		return refuse(fmt.Sprintf("round %d of the call was already answered", st.Round))
	}
	resp, ok := req.Params.InputResponses[h.key]
	if !ok {
		h.mu.Unlock()
		stop(false)
		return refuse(fmt.Sprintf("the retry carries no answer to input request %q", h.key))
	}
	p := h.pending
	h.pending = nil
	h.mu.Unlock()
	// mcp-go keeps an input response as the client sent it until someone
	// decodes it, so this is the client's JSON as it was.
	raw, err := json.Marshal(resp)
	p.answer <- askAnswer{raw: raw, err: err}
	return ep.wait(ctx, h, stop)
}

// sessionID is the legacy session a request belongs to, or "".
func sessionID(ctx context.Context) string {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return ""
	}
	if s := server.ClientSessionFromContext(ctx); s != nil {
		return s.SessionID()
	}
	return ""
}
