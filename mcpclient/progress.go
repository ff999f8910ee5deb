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
// up and queues without blocking; each call drains its own queue.
type progressRoutes struct {
	next atomic.Uint64

	mu      sync.Mutex // guards byToken and sends on its channels
	byToken map[string]chan domain.Progress
}

// open registers a new token and returns it with the queue its
// notifications go to. close must follow.
func (r *progressRoutes) open() (string, <-chan domain.Progress) {
	token := "switchboard-" + strconv.FormatUint(r.next.Add(1), 10)
	ch := make(chan domain.Progress, progressBuffer)
	r.mu.Lock()
	if r.byToken == nil {
		r.byToken = make(map[string]chan domain.Progress)
	}
	r.byToken[token] = ch
	r.mu.Unlock()
	return token, ch
}

// close forgets token and closes its queue; notifications that arrive
// later are ignored.
func (r *progressRoutes) close(token string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ch, ok := r.byToken[token]; ok {
		delete(r.byToken, token)
		close(ch)
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
	ch, ok := r.byToken[token]
	if !ok {
		return
	}
	select {
	case ch <- p:
	default:
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
