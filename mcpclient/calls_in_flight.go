package mcpclient

import (
	"context"
	"sync"
)

// inFlight is the calls running on one session, so that a request the
// server sends without saying which call it belongs to (every request on
// stdio, and those on the streamable GET stream) can still reach the one
// who made the call, as long as only one call could have caused it.
type inFlight struct {
	mu    sync.Mutex // guards calls
	calls map[*runningCall]struct{}
}

// runningCall is one call in flight. Its ctx is the call's own: it carries
// the caller's Asker and ends when the call ends, which bounds how long a
// server's request made during the call may wait for an answer.
type runningCall struct {
	ctx context.Context
}

type runningCallKey struct{}

// start registers a call made on ctx and returns the ctx to send it on,
// which names the call so that a request arriving on the call's own
// response stream is tied to it directly, and end, which unregisters it.
func (f *inFlight) start(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	c := &runningCall{ctx: ctx}
	f.mu.Lock()
	if f.calls == nil {
		f.calls = make(map[*runningCall]struct{})
	}
	f.calls[c] = struct{}{}
	f.mu.Unlock()
	return context.WithValue(ctx, runningCallKey{}, c), func() {
		f.mu.Lock()
		delete(f.calls, c)
		f.mu.Unlock()
		cancel()
	}
}

// sentKey marks the context of a request Switchboard sent on streamable
// HTTP: mcp-go hands a server's request that arrives on that request's
// response stream a context derived from it.
type sentKey struct{}

func markSent(ctx context.Context) context.Context { return context.WithValue(ctx, sentKey{}, true) }

// callOf returns the call a server's request belongs to: the one ctx
// names, when the request came on that call's response stream, else the
// only call in flight. With none or several in flight it returns nil and
// how many there were: guessing could hand one caller's request to
// another. A request on the stream of one of our requests that is not a
// call returns nil and -1.
func (f *inFlight) callOf(ctx context.Context) (*runningCall, int) {
	if c, ok := ctx.Value(runningCallKey{}).(*runningCall); ok {
		return c, 1
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// A request on the response stream of one of our own requests that is
	// not a call (resources/read, prompts/get, completion) belongs to that
	// request, whoever made it: never to the one call that happens to be
	// running.
	if ctx.Value(sentKey{}) != nil {
		return nil, -1
	}
	if len(f.calls) != 1 {
		return nil, len(f.calls)
	}
	for c := range f.calls {
		return c, 1
	}
	return nil, 0
}
