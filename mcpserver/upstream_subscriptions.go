package mcpserver

import (
	"context"
	"sync"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// upstreamSub names one resource of one server.
type upstreamSub struct{ server, uri string }

// upstreamSubs are the gateway's subscriptions to servers' resources, one
// per resource however many clients hold it, and what the gateway knows
// of each server's offer.
type upstreamSubs struct {
	mu sync.Mutex // guards the maps
	// count is how many client subscriptions (legacy sessions' and
	// 2026-07-28 listen streams') hold each resource.
	count map[upstreamSub]int
	// offers is whether each server offered resource subscriptions when
	// it was last connected; a server never seen connected is absent.
	offers map[string]bool
	// conns is when each exposed server's connection began, at the last
	// refresh: a different time is a new upstream session, which holds no
	// subscriptions.
	conns map[string]time.Time
	// held is what the gateway last asked each server for: subscribed or
	// not. settle changes it, one resource at a time (locks).
	held  map[upstreamSub]bool
	locks map[upstreamSub]*subLock
}

// subLock orders the upstream subscribe and unsubscribe of one resource:
// a client that subscribes as another's unsubscribe is still on its way
// must not end with the count at one and no subscription upstream.
type subLock struct {
	mu   sync.Mutex
	refs int // goroutines holding or waiting for mu; guarded by upstreamSubs.mu
}

// lock takes sub's lock and returns its release.
func (u *upstreamSubs) lock(sub upstreamSub) func() {
	u.mu.Lock()
	if u.locks == nil {
		u.locks = map[upstreamSub]*subLock{}
	}
	l := u.locks[sub]
	if l == nil {
		l = &subLock{}
		u.locks[sub] = l
	}
	l.refs++
	u.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		u.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(u.locks, sub)
		}
		u.mu.Unlock()
	}
}

// settle makes the upstream subscription to sub match whether any client
// holds it, under sub's lock, so calls that race end in the state the
// last count asks for. renew subscribes again even when the gateway had
// (a new upstream session holds none). A failed subscribe leaves sub
// unsubscribed, for the next renewal; an unsubscribe counts as done
// either way (a server that cannot be reached holds nothing).
func (g *Gateway) settle(ctx context.Context, sub upstreamSub, renew bool) {
	unlock := g.upstream.lock(sub)
	defer unlock()
	u := &g.upstream
	u.mu.Lock()
	want, has := u.count[sub] > 0, u.held[sub]
	u.mu.Unlock()
	if want == has && !(renew && want) {
		return
	}
	err := g.opts.Fleet.SubscribeResource(context.WithoutCancel(ctx), sub.server, sub.uri, want)
	if err != nil {
		g.opts.Log.Warn("gateway cannot change a resource subscription", "server", sub.server, "uri", sub.uri, "subscribe", want, "error", err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.held == nil {
		u.held = map[upstreamSub]bool{}
	}
	if want && err == nil {
		u.held[sub] = true
	} else {
		delete(u.held, sub)
	}
}

// offer reports whether server offered resource subscriptions when last
// connected, and whether it was ever seen connected.
func (u *upstreamSubs) offer(server string) (offers, known bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	offers, known = u.offers[server]
	return offers, known
}

// retain counts one more client subscribed to sub, subscribing upstream
// for the first. A server that is not connected is subscribed to when it
// connects (see renewSubscriptions).
func (g *Gateway) retain(ctx context.Context, sub upstreamSub) {
	g.upstream.mu.Lock()
	if g.upstream.count == nil {
		g.upstream.count = map[upstreamSub]int{}
	}
	g.upstream.count[sub]++
	first := g.upstream.count[sub] == 1
	g.upstream.mu.Unlock()
	if first {
		g.settle(ctx, sub, false)
	}
}

// release counts one client fewer subscribed to sub, unsubscribing
// upstream after the last.
func (g *Gateway) release(ctx context.Context, sub upstreamSub) {
	g.upstream.mu.Lock()
	g.upstream.count[sub]--
	last := g.upstream.count[sub] <= 0
	if last {
		delete(g.upstream.count, sub)
	}
	g.upstream.mu.Unlock()
	if last {
		g.settle(ctx, sub, false)
	}
}

// renewSubscriptions notes what each exposed server offers and subscribes
// again, upstream, to every resource clients still hold of a server that
// came back with a new connection: the new upstream session starts with
// none. prev is the set of servers exposed before this refresh.
func (g *Gateway) renewSubscriptions(prev map[string]bool, exposed []domain.CatalogueServer) {
	type renewal struct {
		server string
		uris   []string
	}
	var renewals []renewal
	g.upstream.mu.Lock()
	if g.upstream.offers == nil {
		g.upstream.offers, g.upstream.conns = map[string]bool{}, map[string]time.Time{}
	}
	seen := map[string]bool{}
	for _, in := range exposed {
		name := in.Status.ServerName
		seen[name] = true
		offers, err := g.opts.Fleet.OffersResourceSubscriptions(name)
		if err != nil {
			continue // disconnected since the refresh read it; the next one renews
		}
		g.upstream.offers[name] = offers
		at, had := g.upstream.conns[name]
		g.upstream.conns[name] = in.Status.ConnectedAt
		if !offers || (prev[name] && had && at.Equal(in.Status.ConnectedAt)) {
			continue
		}
		r := renewal{server: name}
		for sub := range g.upstream.count {
			if sub.server == name {
				r.uris = append(r.uris, sub.uri)
			}
		}
		if len(r.uris) > 0 {
			renewals = append(renewals, r)
		}
	}
	for name := range g.upstream.conns {
		if !seen[name] {
			delete(g.upstream.conns, name)
		}
	}
	g.upstream.mu.Unlock()
	for _, r := range renewals {
		go func() {
			for _, uri := range r.uris {
				g.settle(context.Background(), upstreamSub{server: r.server, uri: uri}, true)
			}
		}()
	}
}
