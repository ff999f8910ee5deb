package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// subscriptions are the resources each legacy session of one endpoint
// subscribed to, by the server that owns each.
type subscriptions struct {
	mu        sync.Mutex                   // guards bySession
	bySession map[string]map[string]string // session ID -> URI -> server
}

// addSubscriptions makes ep keep its clients' subscriptions and forward
// them upstream, for legacy sessions (resources/subscribe) and 2026-07-28
// listen streams alike, and advertise resources.subscribe only where a
// server can honour it. mcp-go answers resources/subscribe itself and its
// streamable HTTP sessions keep no subscriptions, so the gateway keeps
// them in after-hooks; a subscription upstream that fails is logged, as a
// hook cannot fail the client's request (guardSubscribe refuses, before
// mcp-go sees it, a subscription no server could honour).
func (ep *endpoint) addSubscriptions(hooks *server.Hooks) {
	ep.subs.bySession = map[string]map[string]string{}
	ep.addListen(hooks)
	ep.addSubscribeOffer(hooks)
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		s := server.ClientSessionFromContext(ctx)
		if s == nil {
			return
		}
		srv, err := ep.subscribable(req.Params.URI)
		if err != nil {
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

// subscribable returns the server a client of this endpoint subscribes to
// uri through, or an error that tells the client why it cannot: no
// server offers the resource, or its server does not offer subscriptions.
// A server that has not connected yet is given the benefit of the doubt;
// it is subscribed to when it connects.
func (ep *endpoint) subscribable(uri string) (string, error) {
	srv, ok := ep.owner(uri)
	if !ok {
		return "", fmt.Errorf("cannot subscribe to %q: no connected server offers this resource", uri)
	}
	if offers, known := ep.g.upstream.offer(srv); known && !offers {
		return "", fmt.Errorf("cannot subscribe to %q: server %q does not support resource subscriptions", uri, srv)
	}
	return srv, nil
}

// forwardUpdate passes a server's notifications/resources/updated to the
// legacy sessions and the 2026-07-28 listen streams subscribed to that
// resource of that server.
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
		ep.listens.deliver(n.Server, uri, fields)
	}
}
