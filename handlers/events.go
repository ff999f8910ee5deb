package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// eventsAPI streams status snapshots as server-sent events.
type eventsAPI struct {
	hub       *domain.Hub
	heartbeat time.Duration
	done      <-chan struct{}
	// invocations adds `event: invocation` frames for the scope's tool
	// calls (invocation_events.go); nil sends none.
	invocations *invocationFeed
	// config adds `event: config` frames on every settings reload; nil
	// (demo mode) sends none.
	config *domain.Reloader
}

// sseEvent names the event carrying a status snapshot, for htmx's
// sse-swap and EventSource listeners.
const sseEvent = "status"

var ping = []byte(": ping\n\n")

// stream sends the full current list, then every change. It reads the
// subscription in the request's own goroutine: the hub only ever stores
// into the subscription, which coalesces per server, so a slow client
// skips intermediate snapshots but never delays a publisher and always
// ends on each server's newest state.
func (a *eventsAPI) stream(c echo.Context) error {
	ctx, cancel := context.WithCancel(c.Request().Context())
	defer cancel()
	if a.done != nil {
		go func() {
			select {
			case <-a.done:
				cancel()
			case <-ctx.Done():
			}
		}()
	}

	sub := a.hub.Subscribe()
	defer sub.Close()
	var reloads <-chan struct{}
	if a.config != nil {
		ch, stop := a.config.Subscribe()
		defer stop()
		reloads = ch
	}
	if isub := a.invocations.subscribe(); isub != nil {
		defer isub.Close()
		return a.loop(ctx, c, sub, isub, reloads)
	}
	return a.loop(ctx, c, sub, nil, reloads)
}

// loop writes snapshots and invocation changes until the client leaves.
func (a *eventsAPI) loop(ctx context.Context, c echo.Context, sub *domain.Subscription, isub *domain.InvocationSubscription, reloads <-chan struct{}) error {
	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx would otherwise hold events back
	w.WriteHeader(http.StatusOK)
	w.Flush() // an empty fleet sends nothing at first; the client should still see the stream open

	var buf []byte
	configChanged := a.config != nil // the first frames include the current settings state
	for {
		batch, invs, reloaded, idle := waitAll(ctx, a.heartbeat, sub, isub, reloads)
		if ctx.Err() != nil {
			return nil
		}
		buf = buf[:0]
		if idle { // nothing happened for a heartbeat
			buf = append(buf, ping...)
		}
		var err error
		if configChanged || reloaded {
			configChanged = false
			if buf, err = appendConfigEvent(buf, a.config.State()); err != nil {
				return err
			}
		}
		for _, st := range batch {
			if buf, err = appendEvent(buf, st); err != nil {
				return err
			}
		}
		for _, inv := range invs {
			if buf, err = appendInvocationEvent(buf, a.invocations.whole(ctx, inv)); err != nil {
				return err
			}
		}
		if _, err := w.Write(buf); err != nil {
			return nil // the client is gone
		}
		w.Flush()
	}
}

// appendEvent writes one snapshot as an event. The id is the hub version,
// which orders snapshots of one server. JSON from encoding/json never
// holds a raw newline, so one data line carries it whole.
func appendEvent(buf []byte, st domain.Status) ([]byte, error) {
	return appendJSONEvent(buf, sseEvent, st.Version, StatusJSON(st))
}
