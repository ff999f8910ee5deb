package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// mcp-go sends a request to a client only from its own types
// (mcp.ElicitationParams, mcp.CreateMessageParams), and they re-sort a
// requestedSchema's keys, turn large numbers into floats and drop the
// fields they do not model. What a server sends must reach the person
// and the client unchanged, so a forwarded request goes out as a stand-in:
// mcp-go's params, as near the server's as its types allow, marked with a
// nonce. forwardRaw's response writer then swaps the stand-in's bytes for
// the server's params wherever mcp-go wrote them: in an SSE event of a
// legacy client's stream (its tools/call POST or its GET stream), or in
// the inputRequests of a 2026-07-28 client's input_required result. The
// server's params are only compacted (an SSE event is one line). Should a
// stand-in ever reach a client unswapped, it still says what the server
// asked, with one more _meta (or metadata) key.

// forwardMark is the key of a stand-in's nonce.
const forwardMark = "io.switchboard/forwarded"

var forwardMarkBytes = []byte(forwardMark)

// forwardedParams are the stand-ins on their way out, by nonce.
type forwardedParams struct {
	mu      sync.Mutex // guards pending
	pending map[string]forwardSwap
}

// forwardSwap is one stand-in's bytes as mcp-go writes them and the
// server's params to write instead.
type forwardSwap struct {
	standIn, raw []byte
}

type forwardedKey struct{}

// forwardRaw swaps stand-ins for the server's params in every response
// of next; the requests' contexts carry the registry that standIn fills.
func forwardRaw(next http.Handler) http.Handler {
	f := &forwardedParams{pending: map[string]forwardSwap{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&forwardWriter{ResponseWriter: w, f: f}, r.WithContext(context.WithValue(r.Context(), forwardedKey{}, f)))
	})
}

// forwardWriter writes what mcp-go writes, with the stand-ins swapped.
// mcp-go v1.2.1 writes each JSON body and each SSE event in one Write.
type forwardWriter struct {
	http.ResponseWriter
	f *forwardedParams
}

// Write passes p on, swapped when it may carry a stand-in.
func (w *forwardWriter) Write(p []byte) (int, error) {
	if !bytes.Contains(p, forwardMarkBytes) {
		return w.ResponseWriter.Write(p)
	}
	if _, err := w.ResponseWriter.Write(w.f.swap(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush keeps SSE responses streaming.
func (w *forwardWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *forwardWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// swap returns p with every pending stand-in in it replaced.
func (f *forwardedParams) swap(p []byte) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.pending {
		if bytes.Contains(p, s.standIn) {
			p = bytes.Replace(p, s.standIn, s.raw, 1)
		}
	}
	return p
}

// add registers a stand-in and returns the func that forgets it.
func (f *forwardedParams) add(nonce string, s forwardSwap) func() {
	f.mu.Lock()
	f.pending[nonce] = s
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		delete(f.pending, nonce)
		f.mu.Unlock()
	}
}

// forwarding is what a stand-in needs: the registry of ctx's endpoint
// (nil outside one) and the server's params compacted, nil when there is
// nothing to swap.
func forwarding(ctx context.Context, req domain.ServerRequest) (*forwardedParams, []byte, error) {
	f, _ := ctx.Value(forwardedKey{}).(*forwardedParams)
	if f == nil || len(req.Params) == 0 || string(req.Params) == "null" {
		return nil, nil, nil
	}
	var raw bytes.Buffer
	if err := json.Compact(&raw, req.Params); err != nil {
		return nil, nil, fmt.Errorf("the server's %s params: %w", req.Method, err)
	}
	return f, raw.Bytes(), nil
}

// register marks what a stand-in carries with a fresh nonce (through
// mark), and records the stand-in's bytes for the swap.
func register(f *forwardedParams, raw []byte, mark func(nonce string), standIn func() any) (func(), error) {
	nonce := rand.Text()
	mark(nonce)
	b, err := json.Marshal(standIn())
	if err != nil {
		return nil, fmt.Errorf("the stand-in params: %w", err)
	}
	return f.add(nonce, forwardSwap{standIn: b, raw: raw}), nil
}

// elicitStandIn is the elicitation/create params to hand mcp-go for req,
// and the func that forgets the swap once the request is answered.
func elicitStandIn(ctx context.Context, req domain.ServerRequest) (mcp.ElicitationParams, func(), error) {
	var p mcp.ElicitationParams
	if err := unmarshalParams(req, &p); err != nil {
		return p, nil, err
	}
	var top struct {
		Meta   json.RawMessage `json:"_meta"`
		Schema json.RawMessage `json:"requestedSchema"`
	}
	_ = json.Unmarshal(req.Params, &top)
	if len(top.Schema) > 0 && string(top.Schema) != "null" {
		p.RequestedSchema = top.Schema
	}
	meta, err := rawMeta(top.Meta)
	if err != nil {
		return p, nil, fmt.Errorf("the server's %s params: %w", req.Method, err)
	}
	p.Meta = meta
	f, raw, err := forwarding(ctx, req)
	if f == nil || err != nil {
		return p, func() {}, err
	}
	forget, err := register(f, raw, func(nonce string) {
		if p.Meta == nil {
			p.Meta = &mcp.Meta{}
		}
		if p.Meta.AdditionalFields == nil {
			p.Meta.AdditionalFields = map[string]any{}
		}
		p.Meta.AdditionalFields[forwardMark] = nonce
	}, func() any { return p })
	return p, forget, err
}

// sampleStandIn is the sampling/createMessage params to hand mcp-go for
// req, and the func that forgets the swap once the request is answered.
// Sampling params have no _meta in mcp-go's type: the nonce goes into
// metadata.
func sampleStandIn(ctx context.Context, req domain.ServerRequest) (mcp.CreateMessageParams, func(), error) {
	var p mcp.CreateMessageParams
	if err := unmarshalParams(req, &p); err != nil {
		return p, nil, err
	}
	var top struct {
		Metadata json.RawMessage `json:"metadata"`
	}
	_ = json.Unmarshal(req.Params, &top)
	if len(top.Metadata) > 0 && string(top.Metadata) != "null" {
		p.Metadata = top.Metadata
	}
	f, raw, err := forwarding(ctx, req)
	if f == nil || err != nil {
		return p, func() {}, err
	}
	forget, err := register(f, raw, func(nonce string) {
		md := map[string]json.RawMessage{}
		_ = json.Unmarshal(top.Metadata, &md)
		n, _ := json.Marshal(nonce)
		md[forwardMark] = n
		p.Metadata = md
	}, func() any { return p })
	return p, forget, err
}
