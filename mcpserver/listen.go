package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// In the 2026-07-28 era a client has no session and no GET stream: it
// opens one subscriptions/listen request whose response stream stays open
// and names, in its filter, the notifications it wants. mcp-go serves the
// stream and delivers the list_changed kinds the client asked for (the
// gateway's Set* calls broadcast them), but it keeps no resource
// subscriptions for such a stream: they are kept here, shared upstream
// with the legacy sessions' through retain and release, and each update is
// written to the stream's session, which tags it with the stream's
// subscription ID.
//
// Log messages have no such channel. 2026-07-28 drops logging/setLevel for
// a per-request level in _meta, and a server must not send log messages
// for a request that did not ask for them; the listen filter has no log
// type, and mcp-go keeps anything outside the filter off the stream. A
// server's log messages are not tied to any client's request (one
// upstream session serves every client), so 2026-07-28 clients get none;
// legacy sessions keep them (see logging.go).

// listenStreams are the open subscriptions/listen streams of one
// endpoint that asked for resource updates.
type listenStreams struct {
	mu      sync.Mutex // guards streams
	streams map[*listenStream]struct{}
}

// listenStream is one client's listen stream and the resources it holds.
type listenStream struct {
	session server.ClientSession
	uris    map[string]string // URI -> server
}

// maxListenResources bounds the resources one listen stream may hold
// upstream: each is a subscription Switchboard keeps on a server's
// connection for as long as the stream is open. The acknowledgement lists
// the ones that took effect.
const maxListenResources = 1000

// addListen makes ep keep the resources each listen stream asks for while
// it is open. A URI no server could honour is left out of the filter
// before mcp-go acknowledges it, so the client reads in the
// acknowledgement which subscriptions took effect.
func (ep *endpoint) addListen(hooks *server.Hooks) {
	ep.listens.streams = map[*listenStream]struct{}{}
	hooks.AddBeforeSubscriptionsListen(func(ctx context.Context, _ any, req *mcp.SubscriptionsListenRequest) {
		want := req.Params.Notifications.ResourceSubscriptions
		if len(want) == 0 {
			return
		}
		s := server.ClientSessionFromContext(ctx)
		st := &listenStream{session: s, uris: map[string]string{}}
		kept := []string{}
		for _, uri := range want {
			if _, dup := st.uris[uri]; dup {
				continue
			}
			if len(kept) == maxListenResources {
				ep.g.opts.Log.Debug("gateway leaves resources out of a listen stream past its limit", "limit", maxListenResources)
				break
			}
			srv, err := ep.subscribable(uri)
			if err != nil || s == nil {
				ep.g.opts.Log.Debug("gateway leaves a resource out of a listen stream", "uri", uri, "error", err)
				continue
			}
			st.uris[uri] = srv
			kept = append(kept, uri)
		}
		req.Params.Notifications.ResourceSubscriptions = kept
		if len(kept) == 0 {
			return
		}
		ep.listens.mu.Lock()
		ep.listens.streams[st] = struct{}{}
		ep.listens.mu.Unlock()
		for uri, srv := range st.uris {
			ep.g.retain(ctx, upstreamSub{srv, uri})
		}
		// The stream's context ends when the client closes it, or when
		// mcp-go refuses the request; either way its resources are let go.
		context.AfterFunc(ctx, func() {
			ep.listens.mu.Lock()
			delete(ep.listens.streams, st)
			ep.listens.mu.Unlock()
			for uri, srv := range st.uris {
				ep.g.release(context.WithoutCancel(ctx), upstreamSub{srv, uri})
			}
		})
	})
}

// deliver writes a server's resource update to every open stream that
// holds uri of that server. fields are the update's params as the server
// sent them; its _meta, if any, is kept as the notification's _meta so the
// stream's subscription ID joins it rather than replacing it. A stream
// whose buffer is full misses the update, as mcp-go's own sends do.
func (l *listenStreams) deliver(srv, uri string, fields map[string]json.RawMessage) {
	l.mu.Lock()
	var targets []server.ClientSession
	for st := range l.streams {
		if st.uris[uri] == srv {
			targets = append(targets, st.session)
		}
	}
	l.mu.Unlock()
	if len(targets) == 0 {
		return
	}
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
		Method: mcp.MethodNotificationResourceUpdated,
		Params: mcp.NotificationParams{AdditionalFields: make(map[string]any, len(fields))},
	}}
	for k, v := range fields {
		if k != "_meta" {
			n.Params.AdditionalFields[k] = v
		}
	}
	var meta map[string]any
	if raw, ok := fields["_meta"]; ok && json.Unmarshal(raw, &meta) == nil {
		n.Params.Meta = meta
	}
	for _, s := range targets {
		select {
		case s.NotificationChannel() <- n:
		default:
		}
	}
}
