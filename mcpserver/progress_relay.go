package mcpserver

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// forwardProgress relays the progress the invocation service records for
// one call to the client's progress token, from the feed every change is
// published to: a subscription to that call alone, taken once started
// names it, and the call's state at that moment for whatever happened
// before. stop(true), for a call that has ended, waits until the relay
// has seen it end (the feed never drops a status, and the final snapshot
// carries the last progress), so no progress is lost to a race with the
// result; stop(false), for one that goes on without the client (held for
// approval), does not wait. Either way it then ends the relay.
func (g *Gateway) forwardProgress(ctx context.Context, token mcp.ProgressToken) (started func(string), stop func(final bool)) {
	srv := server.ServerFromContext(ctx)
	idc := make(chan string, 1)
	ctx, cancel := context.WithCancel(ctx)
	ended := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var id string
		select {
		case id = <-idc:
		case <-ctx.Done():
			return
		}
		sub := g.opts.Invocations.Feed().SubscribeCall(g.opts.Scope, id)
		defer sub.Close()
		r := progressRelay{g: g, srv: srv, token: token}
		defer r.stopWaiting()
		// Taken after subscribing, the state holds every change the
		// subscription missed; the changes it then delivers that are no
		// newer are skipped, so progress never goes back.
		if inv, err := g.opts.Invocations.Get(ctx, g.opts.Scope, id); err == nil && r.relay(ctx, inv) {
			close(ended)
			return
		}
		for {
			invs, err := sub.Next(ctx)
			if err != nil {
				return
			}
			for _, inv := range invs {
				if r.relay(ctx, inv) {
					close(ended)
					return
				}
			}
		}
	}()
	var once bool
	return func(id string) { once = true; idc <- id }, func(final bool) {
		if once && final {
			select {
			case <-ended:
			case <-ctx.Done():
			}
		}
		cancel()
		<-done
	}
}

// progressRelay turns one call's changes into the client's progress
// notifications; only forwardProgress's goroutine uses it.
type progressRelay struct {
	g       *Gateway
	srv     *server.MCPServer
	token   mcp.ProgressToken
	version uint64           // the newest change relayed
	last    *domain.Progress // the last progress sent
	waiting func()           // ends the keep-alive of a call held for approval; nil when none runs
}

// relay sends what inv says that the client has not heard yet and reports
// whether the call has ended.
func (r *progressRelay) relay(ctx context.Context, inv domain.Invocation) bool {
	if inv.Version <= r.version {
		return false
	}
	r.version = inv.Version
	held := inv.Status == domain.InvocationAwaitingApproval
	switch {
	case held && r.waiting == nil:
		r.waiting = r.g.keepWaiting(ctx, r.srv, r.token)
	case !held:
		r.stopWaiting()
	}
	if p := inv.Progress; p != nil && (r.last == nil || *r.last != *p) {
		r.last = p
		params := map[string]any{"progressToken": r.token, "progress": p.Progress}
		if p.Total > 0 {
			params["total"] = p.Total
		}
		if p.Message != "" {
			params["message"] = p.Message
		}
		if r.srv != nil {
			_ = r.srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params)
		}
	}
	return inv.Status.Final()
}

func (r *progressRelay) stopWaiting() {
	if r.waiting != nil {
		r.waiting()
		r.waiting = nil
	}
}

// approvalKeepAlive is how often a client whose call awaits a person's
// approval hears that it still does: clients give up on a call that has
// been silent for about a minute, and any progress resets their clock.
const approvalKeepAlive = 10 * time.Second

// waitingStep is the progress of each keep-alive: tiny and growing, so the
// values a client sees still increase when the server's own progress
// follows, as MCP requires, without claiming any real part of the work.
const waitingStep = 1e-6

// keepWaiting tells the client at once, and then every approvalKeepAlive,
// that its call is waiting for approval in Switchboard, until the returned
// stop is called or ctx ends.
func (g *Gateway) keepWaiting(ctx context.Context, srv *server.MCPServer, token mcp.ProgressToken) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for n := 1; ; n++ {
			if srv != nil {
				_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
					"progressToken": token, "progress": float64(n) * waitingStep,
					"message": "waiting for approval in Switchboard",
				})
			}
			t := g.opts.Clock.NewTimer(approvalKeepAlive)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C():
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
