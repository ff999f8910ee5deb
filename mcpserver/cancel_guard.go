package mcpserver

import (
	"net/http"
)

// maxCancelPeek bounds how much of a session-less POST is read to see
// whether it is a cancellation; cancellations are tiny.
const maxCancelPeek = 64 << 10

// guardCancel works around mcp-go v1.2.1 keying in-flight requests by
// session ID and JSON-RPC id: a 2026-07-28 request has no session, so one
// client's notifications/cancelled{requestId: 1} would cancel whichever
// other client's request 1 happens to be in flight. A session-less
// cancellation is therefore answered 202 and dropped here. Such a client's
// call still ends when it gives up on it: it closes the request's HTTP
// stream, which ends the handler's context, which cancels the invocation.
// Legacy sessions keep mcp-go's own, correctly scoped handling.
func guardCancel(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		p, r := peekRequest(r)
		if p.is("notifications/cancelled", maxCancelPeek) {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		next.ServeHTTP(w, r)
	})
}
