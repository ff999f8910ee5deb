package mcpserver

import "net/http"

// activating makes sure the endpoint serves its full lists before its
// first request is handled (see endpoint.active).
func (ep *endpoint) activating(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ep.active.Load() {
			ep.g.activate(ep)
		}
		next.ServeHTTP(w, r)
	})
}

// activate gives ep the lists of the last refresh, under refreshMu so that
// a refresh running now cannot set an older list after this one.
func (g *Gateway) activate(ep *endpoint) {
	g.refreshMu.Lock()
	defer g.refreshMu.Unlock()
	if ep.active.Load() {
		return
	}
	g.mu.Lock()
	inputs := g.inputs
	g.mu.Unlock()
	ep.active.Store(true)
	ep.sync(inputs)
}
