package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// maxSubscribePeek bounds how much of a POST is read to see whether it is
// a resources/subscribe; those are small.
const maxSubscribePeek = 64 << 10

// addSubscribeOffer makes ep advertise resources.subscribe only where it
// can work: on a server's endpoint, when that server offered it when last
// connected; on /mcp, when any exposed server does. mcp-go's own
// capability stays on, since it refuses subscriptions outright without
// it, and only what initialize and server/discover announce is corrected.
func (ep *endpoint) addSubscribeOffer(hooks *server.Hooks) {
	hooks.AddAfterInitialize(func(_ context.Context, _ any, _ *mcp.InitializeRequest, res *mcp.InitializeResult) {
		if res != nil && res.Capabilities.Resources != nil {
			res.Capabilities.Resources.Subscribe = ep.offersSubscriptions()
		}
	})
	hooks.AddAfterDiscover(func(_ context.Context, _ any, _ *mcp.DiscoverRequest, res *mcp.DiscoverResult) {
		if res != nil && res.Capabilities.Resources != nil {
			res.Capabilities.Resources.Subscribe = ep.offersSubscriptions()
		}
	})
}

// offersSubscriptions reports whether a client of ep can subscribe to
// resources now.
func (ep *endpoint) offersSubscriptions() bool {
	if ep.server != "" {
		offers, _ := ep.g.upstream.offer(ep.server)
		return offers
	}
	ep.g.mu.Lock()
	exposed := make([]string, 0, len(ep.g.exposed))
	for name, on := range ep.g.exposed {
		if on {
			exposed = append(exposed, name)
		}
	}
	ep.g.mu.Unlock()
	for _, name := range exposed {
		if offers, _ := ep.g.upstream.offer(name); offers {
			return true
		}
	}
	return false
}

// guardSubscribe answers a legacy session's resources/subscribe that no
// server could honour with a JSON-RPC error saying why, before mcp-go
// (which would accept it) sees it. Every other request, 2026-07-28 ones
// included (they carry no session and cannot use resources/subscribe),
// passes through untouched.
func (ep *endpoint) guardSubscribe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil || r.Header.Get("Mcp-Session-Id") == "" || r.ContentLength > maxSubscribePeek {
			next.ServeHTTP(w, r)
			return
		}
		p, r := peekRequest(r)
		if !p.is(string(mcp.MethodResourcesSubscribe), maxSubscribePeek) || len(p.id) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		var msg struct {
			Params struct {
				URI string `json:"uri"`
			} `json:"params"`
		}
		if json.Unmarshal(p.body, &msg) != nil || msg.Params.URI == "" {
			next.ServeHTTP(w, r)
			return
		}
		if _, err := ep.subscribable(msg.Params.URI); err != nil {
			writeRPCError(w, p.id, mcp.INVALID_PARAMS, err.Error())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// writeRPCError answers a request with a JSON-RPC error.
func writeRPCError(w http.ResponseWriter, id json.RawMessage, code int, message string) {
	body, err := json.Marshal(map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": id, "error": rpcError{code, message}})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
