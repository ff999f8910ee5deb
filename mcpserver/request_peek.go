package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
)

// maxPeek bounds how much of a POST the gateway reads before mcp-go does;
// each middleware applies its own, smaller bound on top.
const maxPeek = maxExtrasPeek

// peeked is the start of a POST as the gateway's middlewares see it
// before mcp-go reads it.
type peeked struct {
	body []byte // at most maxPeek+1 bytes
	// whole reports whether body is the whole request: it was read to its
	// end within maxPeek.
	whole bool
	// parsed reports whether body is one JSON object, whose id and
	// method follow.
	parsed bool
	id     json.RawMessage
	method string
}

type peekKey struct{}

// peekRequest returns r's peeked start and the request that carries it.
// The first middleware to ask reads and decodes the body; the ones after
// it find the result in the context. Each used to read and decode the
// body again, which cost a gateway call more than the rest of them did.
func peekRequest(r *http.Request) (*peeked, *http.Request) {
	if p, ok := r.Context().Value(peekKey{}).(*peeked); ok {
		return p, r
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPeek+1))
	p := &peeked{body: body, whole: err == nil && len(body) <= maxPeek}
	if p.whole {
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &msg) == nil {
			p.parsed, p.id, p.method = true, msg.ID, msg.Method
		}
	} else {
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	}
	return p, r.WithContext(context.WithValue(r.Context(), peekKey{}, p))
}

// is reports whether the request is one JSON-RPC message of method whose
// body is at most limit bytes.
func (p *peeked) is(method string, limit int) bool {
	return p.parsed && len(p.body) <= limit && p.method == method
}
