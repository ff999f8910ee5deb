package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// mcp-go builds a tools/call answer from its CallToolResult type, which
// has no room for top-level fields it does not model, so a server's own
// fields on the result would be lost. keepExtras puts them back on the
// way out: for a POST that carries a tools/call it leaves a slot in the
// request's context (mcp-go hands the handler a context derived from
// it), the tool handler puts the fields into the slot, and the response
// writer adds them to the result object of the answer with the request's
// id as mcp-go writes it, whether as a JSON body or as an SSE event (each
// a single Write in mcp-go v1.2.1).

// maxExtrasPeek bounds how much of a POST is read to see whether it is a
// tools/call; larger requests pass untouched (and lose the extras).
const maxExtrasPeek = 1 << 20

// knownResultFields are the fields mcp-go writes itself.
var knownResultFields = map[string]bool{"content": true, "structuredContent": true, "isError": true, "_meta": true, "resultType": true}

// extrasSlot carries one call's unmodelled result fields.
type extrasSlot struct {
	mu     sync.Mutex // guards fields
	fields map[string]json.RawMessage
}

type extrasKey struct{}

// keepResultExtras records the fields of raw mcp-go would drop, when ctx
// has a slot for them.
func keepResultExtras(ctx context.Context, raw json.RawMessage) {
	slot, _ := ctx.Value(extrasKey{}).(*extrasSlot)
	if slot == nil {
		return
	}
	// Most results hold only fields mcp-go models, which their keys alone
	// show, without the copy of every value (a whole result, maybe
	// megabytes) that decoding the values takes.
	var keys map[string]skippedValue
	if json.Unmarshal(raw, &keys) != nil || !hasUnknownField(keys) {
		return
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return
	}
	extra := map[string]json.RawMessage{}
	for k, v := range top {
		if !knownResultFields[k] {
			extra[k] = v
		}
	}
	if len(extra) == 0 {
		return
	}
	slot.mu.Lock()
	slot.fields = extra
	slot.mu.Unlock()
}

// skippedValue decodes any JSON value into nothing.
type skippedValue struct{}

func (*skippedValue) UnmarshalJSON([]byte) error { return nil }

// hasUnknownField reports whether a result's keys include one mcp-go
// does not write itself.
func hasUnknownField(keys map[string]skippedValue) bool {
	for k := range keys {
		if !knownResultFields[k] {
			return true
		}
	}
	return false
}

func keepExtras(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		p, r := peekRequest(r)
		if !p.is(string(mcp.MethodToolsCall), maxExtrasPeek) || len(p.id) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		slot := &extrasSlot{}
		ew := &extrasWriter{ResponseWriter: w, slot: slot, id: p.id}
		next.ServeHTTP(ew, r.WithContext(context.WithValue(r.Context(), extrasKey{}, slot)))
	})
}

// extrasWriter adds a slot's fields to the answer with id.
type extrasWriter struct {
	http.ResponseWriter
	slot *extrasSlot
	id   json.RawMessage
	done bool
}

func (w *extrasWriter) Write(p []byte) (int, error) {
	if w.done {
		return w.ResponseWriter.Write(p)
	}
	w.slot.mu.Lock()
	fields := w.slot.fields
	w.slot.mu.Unlock()
	if len(fields) == 0 {
		return w.ResponseWriter.Write(p)
	}
	out, ok := w.rewrite(p, fields)
	if !ok {
		return w.ResponseWriter.Write(p)
	}
	w.done = true
	if _, err := w.ResponseWriter.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// rewrite finds the JSON-RPC answer in p (a JSON body or one SSE event)
// and returns p with fields added to its result.
func (w *extrasWriter) rewrite(p []byte, fields map[string]json.RawMessage) ([]byte, bool) {
	start, end := 0, len(p)
	if !bytes.HasPrefix(bytes.TrimSpace(p), []byte("{")) {
		i := bytes.Index(p, []byte("data: "))
		if i < 0 {
			return nil, false
		}
		start = i + len("data: ")
		if j := bytes.IndexByte(p[start:], '\n'); j >= 0 {
			end = start + j
		}
	}
	var resp map[string]json.RawMessage
	if json.Unmarshal(p[start:end], &resp) != nil || resp["result"] == nil || !sameID(resp["id"], w.id) {
		return nil, false
	}
	var result map[string]json.RawMessage
	if json.Unmarshal(resp["result"], &result) != nil {
		return nil, false
	}
	for k, v := range fields {
		if _, taken := result[k]; !taken {
			result[k] = v
		}
	}
	rb, err := json.Marshal(result)
	if err != nil {
		return nil, false
	}
	resp["result"] = rb
	msg, err := json.Marshal(resp)
	if err != nil {
		return nil, false
	}
	out := make([]byte, 0, len(p)+len(msg))
	out = append(out, p[:start]...)
	out = append(out, bytes.TrimSpace(msg)...)
	return append(out, p[end:]...), true
}

func sameID(a, b json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b))
}

// Flush keeps SSE responses streaming.
func (w *extrasWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *extrasWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// answerTo is answer, keeping the server's unmodelled result fields for
// keepExtras when the result passes through.
func (g *Gateway) answerTo(ctx context.Context, srv, tool string, inv domain.Invocation, err error) *mcp.CallToolResult {
	if err == nil && len(inv.Result) > 0 && !inv.Truncated {
		keepResultExtras(ctx, inv.Result)
	}
	return g.answer(srv, tool, inv, err)
}
