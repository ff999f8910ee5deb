package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// placeholderTool stands in mcp-go's answer for the tools the response
// writer puts back. Its name ends in a secret of this process, so that
// nothing else written to the response (a server's notification relayed
// while the list is answered) can pass for it.
var placeholderTool = mcp.Tool{Name: "switchboard.cached-tool-list." + rand.Text(), RawInputSchema: json.RawMessage(`{}`)}

// placeholderArray is how mcp-go writes a tools array holding only
// placeholderTool.
var placeholderArray = func() []byte {
	b, err := json.Marshal([]mcp.Tool{placeholderTool})
	if err != nil {
		panic(err) // a constant value that always encodes
	}
	return b
}()

// toolListSlot carries, from the hook to the response writer, the
// encoded tools one tools/list answer is to hold.
type toolListSlot struct {
	listing bool                     // the request is a tools/list
	array   atomic.Pointer[[][]byte] // in pieces
}

type toolListKey struct{}

// addToolListing registers the hook that hands a tools/list answer's
// tools to the response writer as cached bytes.
func (ep *endpoint) addToolListing(hooks *server.Hooks) {
	hooks.AddAfterListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
		slot, _ := ctx.Value(toolListKey{}).(*toolListSlot)
		if slot == nil || res == nil {
			return
		}
		l := ep.tools.Load()
		start, ok := l.run(res.Tools)
		if !ok {
			return
		}
		array := l.from(start)
		if !slot.array.CompareAndSwap(nil, &array) {
			return // a second list in one request: mcp-go encodes it
		}
		res.Tools = []mcp.Tool{placeholderTool}
		ep.listedFromCache.Add(1)
	})
}

// maxListPeek bounds how much of a POST is read to see whether it is a
// tools/list; a larger one is still answered from the cache, only without
// hiding the session's tools (below).
const maxListPeek = 64 << 10

// cachedToolLists gives each POST a slot for the hook and a writer that
// puts the cached tools into the answer.
func cachedToolLists(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		p, r := peekRequest(r)
		slot := &toolListSlot{listing: p.is(string(mcp.MethodToolsList), maxListPeek)}
		next.ServeHTTP(&toolListWriter{ResponseWriter: w, slot: slot}, r.WithContext(context.WithValue(r.Context(), toolListKey{}, slot)))
	})
}

// Before it lists tools, mcp-go merges the session's own tools into the
// server's: with a session it copies every tool into a map and sorts them
// again, even when the session has none, as no gateway session does. For
// thousands of tools that costs more than the rest of the answer, so a
// tools/list request of a session without tools of its own is handled
// with the session behind withoutSessionTools, which offers everything
// the session does except its (empty) tools; mcp-go then lists the
// server's tools, the same list.

// listingSession is every exported method of mcp-go's streamable HTTP
// session except the session-tools pair (a test keeps it that way).
type listingSession interface {
	server.SessionWithLogging
	server.SessionWithResources
	server.SessionWithResourceTemplates
	server.SessionWithRoots
	server.SessionWithElicitation
	server.SessionWithSampling
	server.SessionWithStreamableHTTPConfig
	server.SessionWithSubscriptionFilter
	server.SessionWithClientInfo
	server.SessionWithProtocolVersion
	// SetProtocolVersion is mcp-go's unexported sessionProtocolVersionSetter.
	SetProtocolVersion(version string)
}

// withoutSessionTools is a session as tools/list sees it.
type withoutSessionTools struct{ listingSession }

// listingContext is the endpoint's HTTP context function: for a
// tools/list it hides the session's tools when it has none.
func (ep *endpoint) listingContext(ctx context.Context, _ *http.Request) context.Context {
	slot, _ := ctx.Value(toolListKey{}).(*toolListSlot)
	if slot == nil || !slot.listing {
		return ctx
	}
	s, ok := server.ClientSessionFromContext(ctx).(listingSession)
	if !ok {
		return ctx
	}
	if st, ok := s.(server.SessionWithTools); ok && len(st.GetSessionTools()) > 0 {
		return ctx
	}
	return ep.mcp.WithContext(ctx, withoutSessionTools{s})
}

// toolListWriter replaces the placeholder's array with the slot's bytes
// in the write that carries it: mcp-go v1.2.1 writes an answer in one
// Write, as a JSON body or as one SSE event.
type toolListWriter struct {
	http.ResponseWriter
	slot *toolListSlot
	done atomic.Bool
}

func (w *toolListWriter) Write(p []byte) (int, error) {
	array := w.slot.array.Load()
	if array == nil || w.done.Load() {
		return w.ResponseWriter.Write(p)
	}
	i := bytes.Index(p, placeholderArray)
	if i < 0 {
		return w.ResponseWriter.Write(p)
	}
	w.done.Store(true)
	// In several writes, saving a copy of the list: mcp-go writes one
	// message at a time, so nothing comes in between.
	parts := append(append([][]byte{p[:i]}, *array...), p[i+len(placeholderArray):])
	for _, part := range parts {
		if _, err := w.ResponseWriter.Write(part); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush keeps SSE responses streaming.
func (w *toolListWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *toolListWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
