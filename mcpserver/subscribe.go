package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// subscriptions are the resources each session of one endpoint
// subscribed to, by the server that owns each.
type subscriptions struct {
	mu        sync.Mutex                   // guards bySession
	bySession map[string]map[string]string // session ID -> URI -> server
}

// upstreamSub names one resource of one server.
type upstreamSub struct{ server, uri string }

// addSubscriptions makes ep keep its sessions' subscriptions and forward
// them upstream. mcp-go answers resources/subscribe itself and its
// streamable HTTP sessions keep no subscriptions, so the gateway keeps
// them in after-hooks; a subscription upstream that fails is logged, as
// a hook cannot fail the client's request.
func (ep *endpoint) addSubscriptions(hooks *server.Hooks) {
	ep.subs.bySession = map[string]map[string]string{}
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		s := server.ClientSessionFromContext(ctx)
		if s == nil {
			return
		}
		srv, ok := ep.owner(req.Params.URI)
		if !ok {
			return
		}
		ep.subs.mu.Lock()
		uris := ep.subs.bySession[s.SessionID()]
		if uris == nil {
			uris = map[string]string{}
			ep.subs.bySession[s.SessionID()] = uris
		}
		_, had := uris[req.Params.URI]
		uris[req.Params.URI] = srv
		ep.subs.mu.Unlock()
		if !had {
			ep.g.retain(ctx, upstreamSub{srv, req.Params.URI})
		}
	})
	hooks.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		s := server.ClientSessionFromContext(ctx)
		if s == nil {
			return
		}
		ep.subs.mu.Lock()
		srv, had := ep.subs.bySession[s.SessionID()][req.Params.URI]
		delete(ep.subs.bySession[s.SessionID()], req.Params.URI)
		ep.subs.mu.Unlock()
		if had {
			ep.g.release(ctx, upstreamSub{srv, req.Params.URI})
		}
	})
	hooks.AddOnUnregisterSession(func(ctx context.Context, s server.ClientSession) {
		ep.subs.mu.Lock()
		uris := ep.subs.bySession[s.SessionID()]
		delete(ep.subs.bySession, s.SessionID())
		ep.subs.mu.Unlock()
		for uri, srv := range uris {
			ep.g.release(ctx, upstreamSub{srv, uri})
		}
	})
}

// owner returns the server a URI is read from on this endpoint.
func (ep *endpoint) owner(uri string) (string, bool) {
	if ep.server != "" {
		return ep.server, true
	}
	cat := ep.cat.Load()
	if s, ok := cat.ResourceServer(uri); ok {
		return s, true
	}
	return cat.TemplateServer(uri)
}

// retain counts one more client subscribed to sub, subscribing upstream
// for the first.
func (g *Gateway) retain(ctx context.Context, sub upstreamSub) {
	g.subMu.Lock()
	if g.subCount == nil {
		g.subCount = map[upstreamSub]int{}
	}
	g.subCount[sub]++
	first := g.subCount[sub] == 1
	g.subMu.Unlock()
	if first {
		if err := g.opts.Fleet.SubscribeResource(context.WithoutCancel(ctx), sub.server, sub.uri, true); err != nil {
			g.opts.Log.Warn("gateway cannot subscribe to a resource", "server", sub.server, "uri", sub.uri, "error", err)
		}
	}
}

// release counts one client fewer subscribed to sub, unsubscribing
// upstream after the last.
func (g *Gateway) release(ctx context.Context, sub upstreamSub) {
	g.subMu.Lock()
	g.subCount[sub]--
	last := g.subCount[sub] <= 0
	if last {
		delete(g.subCount, sub)
	}
	g.subMu.Unlock()
	if last {
		if err := g.opts.Fleet.SubscribeResource(context.WithoutCancel(ctx), sub.server, sub.uri, false); err != nil {
			g.opts.Log.Warn("gateway cannot unsubscribe from a resource", "server", sub.server, "uri", sub.uri, "error", err)
		}
	}
}

// forwardUpdate passes a server's notifications/resources/updated to the
// sessions subscribed to that resource of that server.
func (g *Gateway) forwardUpdate(n domain.ServerNotification) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(n.Params, &fields); err != nil {
		return
	}
	var uri string
	if err := json.Unmarshal(fields["uri"], &uri); err != nil {
		return
	}
	params := make(map[string]any, len(fields))
	for k, v := range fields {
		params[k] = v
	}
	g.mu.Lock()
	eps := []*endpoint{g.agg}
	if ep := g.servers[n.Server]; ep != nil {
		eps = append(eps, ep)
	}
	g.mu.Unlock()
	for _, ep := range eps {
		ep.subs.mu.Lock()
		var ids []string
		for id, uris := range ep.subs.bySession {
			if uris[uri] == n.Server {
				ids = append(ids, id)
			}
		}
		ep.subs.mu.Unlock()
		for _, id := range ids {
			_ = ep.mcp.SendNotificationToSpecificClient(id, mcp.MethodNotificationResourceUpdated, params)
		}
	}
}
