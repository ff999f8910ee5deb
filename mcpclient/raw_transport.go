package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
)

// rawResults collects the result of every successful response to the
// requests sent on a context that carries it, exactly as the server sent
// it. mcp-go decodes results into its own types, which drop unknown
// fields, icons and execution and add empty strings for missing ones; the
// bytes kept here are what Switchboard passes on instead.
type rawResults struct {
	mu      sync.Mutex // guards results
	results []json.RawMessage
}

func (r *rawResults) add(b json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results = append(r.results, b)
}

// last is the final response's result: the one a request that took
// several round trips ended with. Nil when no result arrived.
func (r *rawResults) last() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.results) == 0 {
		return nil
	}
	return r.results[len(r.results)-1]
}

// all is every result in the order they arrived, such as the pages of a
// list.
func (r *rawResults) all() []json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]json.RawMessage(nil), r.results...)
}

type rawKey struct{}

// withRaw makes the transport record into r the result of every request
// mcp-go sends on ctx.
func withRaw(ctx context.Context, r *rawResults) context.Context {
	return context.WithValue(ctx, rawKey{}, r)
}

// keepRaw records a successful response's result for the request's
// context, if it asked for it. The slice is mcp-go's own copy of the
// bytes, which it only reads from then on.
func keepRaw(ctx context.Context, resp *transport.JSONRPCResponse, err error) {
	if err != nil || resp == nil || resp.Error != nil || resp.Result == nil {
		return
	}
	if r, ok := ctx.Value(rawKey{}).(*rawResults); ok {
		r.add(resp.Result)
	}
}

// The wrappers embed mcp-go's concrete transports, so that every method
// mcp-go looks for by type assertion (BidirectionalInterface,
// HTTPConnection, SetConnectionLostHandler, RequiresLegacyProtocol) is
// still there, and override only SendRequest and, where a server's
// requests can be answered, SetRequestHandler (see serverAsks).
type (
	rawStdio struct {
		*transport.Stdio
		asks *serverAsks
		// discover notes whether server/discover went unanswered.
		discover *discoverOutcome
		// large holds the results kept out of mcp-go (see divertAbove).
		large *largeResults
		// direct sends tools/call past mcp-go (see directCalls).
		direct *directCalls
	}
	rawStreamableHTTP struct {
		*transport.StreamableHTTP
		asks    *serverAsks
		answers *answerPoster
		again   *resender // re-issues a 2026-07-28 request whose stream broke
	}
	rawSSE struct{ *transport.SSE }
)

// SetRequestHandler answers elicitation, sampling and roots requests with
// serverAsks and leaves the rest to mcp-go. Stdio has no time limit on a
// request (it runs on the transport's context), so the answer goes back
// through mcp-go.
func (t rawStdio) SetRequestHandler(h transport.RequestHandler) {
	t.Stdio.SetRequestHandler(t.asks.handler(h, nil))
}

// SetRequestHandler answers elicitation, sampling and roots requests with
// serverAsks, sending the answer itself (see answerPoster), and leaves the
// rest to mcp-go.
func (t rawStreamableHTTP) SetRequestHandler(h transport.RequestHandler) {
	var post func(*transport.JSONRPCResponse)
	if t.answers != nil {
		post = t.answers.post
	}
	t.StreamableHTTP.SetRequestHandler(t.asks.handler(h, post))
}

// SetProtocolVersion also keeps the negotiated version for the answers
// sent outside mcp-go.
func (t rawStreamableHTTP) SetProtocolVersion(version string) {
	if t.answers != nil {
		t.answers.version.Store(version)
	}
	if t.again != nil {
		t.again.setVersion(version)
	}
	t.StreamableHTTP.SetProtocolVersion(version)
}

func (t rawStdio) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	t.direct.learn(req)
	resp, whole, err := t.large.sendRequest(req, func() (*transport.JSONRPCResponse, error) {
		return t.Stdio.SendRequest(ctx, req)
	})
	t.discover.see(req, err)
	resp = checkDiscover(req, resp)
	if whole != nil {
		keepRaw(ctx, whole, err) // mcp-go has only the stub
	} else {
		keepRaw(ctx, resp, err)
	}
	return toolsPageStub(req, resp), err
}

func (t rawStreamableHTTP) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	send := func() (*transport.JSONRPCResponse, error) { return t.StreamableHTTP.SendRequest(markSent(ctx), req) }
	var resp *transport.JSONRPCResponse
	var err error
	if t.again != nil {
		resp, err = t.again.send(ctx, req, send)
	} else {
		resp, err = send()
	}
	resp = checkDiscover(req, resp)
	keepRaw(ctx, resp, err)
	return resp, err
}

func (t rawSSE) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := t.SSE.SendRequest(ctx, req)
	keepRaw(ctx, resp, err)
	return resp, err
}

// rawTransport wraps tr so that results can be captured with withRaw and
// a server's requests answered by s.asks. A transport of another type is
// returned as it is, and results captured through it stay empty.
func rawTransport(tr transport.Interface, s *session) transport.Interface {
	switch t := tr.(type) {
	case *transport.Stdio:
		return rawStdio{t, s.asks, &s.discover, &s.large, &directCalls{}}
	case *transport.StreamableHTTP:
		return rawStreamableHTTP{t, s.asks, s.answers, &resender{}}
	case *transport.SSE:
		return rawSSE{t}
	}
	return tr
}

// sendRaw runs send with a context that captures the server's result and
// returns that result as sent. A result mcp-go fails to decode is still
// the server's answer and is returned; a failed request is categorized as
// requestFailed does, under op.
func (s *session) sendRaw(ctx context.Context, op string, send func(context.Context) error) (json.RawMessage, error) {
	raw := &rawResults{}
	ex := &exchange{}
	rctx, cancel := s.bound(withRaw(withExchange(ctx, ex), raw))
	defer cancel()
	err := send(rctx)
	res := raw.last()
	if err != nil && (res == nil || needsInput(res)) {
		return nil, s.requestFailed(ctx, ex, op, err)
	}
	if res == nil {
		// The transport is not one rawTransport knows: nothing to return.
		return nil, s.requestFailed(ctx, ex, op, errNoRawResult)
	}
	return res, nil
}

// needsInput reports whether a result is a 2026-07-28 request for more
// input, which mcp-go answers itself or fails on: it is never the final
// result.
func needsInput(res json.RawMessage) bool {
	var probe struct {
		ResultType string `json:"resultType"`
	}
	return json.Unmarshal(res, &probe) == nil && probe.ResultType == "input_required"
}

// errNoRawResult is a request answered through a transport whose results
// are not captured; every transport Switchboard builds is.
var errNoRawResult = errors.New("the server's result was not captured")
