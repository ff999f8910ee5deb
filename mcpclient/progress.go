package mcpclient

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/switchboard-mcp/switchboard/domain"
)

// progressBuffer is how many progress notifications of one call may wait
// for its callback. More are dropped: progress is advisory, and the read
// loop that delivers them must never wait for a slow consumer.
const progressBuffer = 32

// progressRoutes hands notifications/progress to the call whose token they
// carry. route runs inline on mcp-go's read loop, so it only looks the token
// up and queues without blocking; each call's queue is drained by a
// goroutine of its own, started by the call's first notification: most
// calls report no progress, and a drainer started for every call would
// put a goroutine switch on the end of each (the call waits for its
// drainer to finish).
type progressRoutes struct {
	next atomic.Uint64

	mu      sync.Mutex // guards byToken and the routes in it
	byToken map[string]*progressRoute
}

// progressRoute is one call's queue and its drainer.
type progressRoute struct {
	deliver func(domain.Progress)
	queue   chan domain.Progress // made with the first notification
	drained chan struct{}        // closed when the drainer has delivered the last
}

// open registers a new token whose notifications go to deliver. The
// returned function must be called when the call ends: it forgets the
// token and returns once every queued notification was delivered.
func (r *progressRoutes) open(deliver func(domain.Progress)) (token string, closeRoute func()) {
	token = "switchboard-" + strconv.FormatUint(r.next.Add(1), 10)
	rt := &progressRoute{deliver: deliver}
	r.mu.Lock()
	if r.byToken == nil {
		r.byToken = make(map[string]*progressRoute)
	}
	r.byToken[token] = rt
	r.mu.Unlock()
	return token, func() { r.close(token, rt) }
}

// close forgets token and waits for its drainer, if it has one;
// notifications that arrive later are ignored.
func (r *progressRoutes) close(token string, rt *progressRoute) {
	r.mu.Lock()
	delete(r.byToken, token)
	queue := rt.queue
	if queue != nil {
		close(queue)
	}
	r.mu.Unlock()
	if queue != nil {
		<-rt.drained
	}
}

// route queues the progress in params for the call that owns its token,
// dropping it when the token is unknown or the queue is full.
func (r *progressRoutes) route(params map[string]any) {
	token, ok := tokenString(params["progressToken"])
	if !ok {
		return
	}
	p := domain.Progress{
		Progress: number(params["progress"]),
		Total:    number(params["total"]),
	}
	p.Message, _ = params["message"].(string)
	r.mu.Lock()
	defer r.mu.Unlock()
	rt, ok := r.byToken[token]
	if !ok {
		return
	}
	if rt.queue == nil {
		rt.queue, rt.drained = make(chan domain.Progress, progressBuffer), make(chan struct{})
		go rt.drain()
	}
	select {
	case rt.queue <- p:
	default:
	}
}

// drain delivers the queue's notifications in order until it is closed.
func (rt *progressRoute) drain() {
	defer close(rt.drained)
	for p := range rt.queue {
		rt.deliver(p)
	}
}

// tokenString returns a progress token as the string open made it; a
// server may echo it back as a JSON number only if we sent one, which we
// never do, but a number is accepted all the same.
func tokenString(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	}
	return "", false
}

func number(v any) float64 {
	f, _ := v.(float64)
	return f
}
