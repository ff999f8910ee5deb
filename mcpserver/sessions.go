package mcpserver

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Bounds of what the gateway remembers of 2026-07-28 clients, which open
// no session: each request only names its client.
const (
	MaxRecentIdentities = 200
	IdentityRetention   = 24 * time.Hour
)

// SeenClient is one AI client on the Connect page (domain.GatewayClient).
type SeenClient = domain.GatewayClient

type identityKey struct {
	endpoint string
	id       domain.ClientIdentity
}

// clientRegistry keeps the sessions and identities the gateway served, and
// the cancel functions of the requests in flight by token, so revoking a
// token can end its open streams.
type clientRegistry struct {
	clock domain.Clock

	mu         sync.Mutex             // guards everything below
	sessions   map[string]*SeenClient // by session ID
	identities map[identityKey]*SeenClient
	requests   map[string]map[*context.CancelFunc]struct{} // by token name
	// resumable holds, by session ID, the identity each legacy session
	// was opened with, for its requests after a restart (see resume).
	resumable map[string]*resumable
	// unknown are session IDs the store does not hold, so their requests
	// do not look again.
	unknown map[string]struct{}
}

func newClientRegistry(clock domain.Clock) *clientRegistry {
	return &clientRegistry{clock: clock, sessions: map[string]*SeenClient{},
		identities: map[identityKey]*SeenClient{}, requests: map[string]map[*context.CancelFunc]struct{}{},
		resumable: map[string]*resumable{}, unknown: map[string]struct{}{}}
}

// hook feeds the registry from one endpoint's requests: initialize opens
// a legacy session (remembered across restarts when Options.Sessions is
// set), its end closes it, a later request of a session opened before a
// restart gets its identity back, and any request carrying 2026-07-28
// client info marks that identity seen.
func (r *clientRegistry) hook(g *Gateway, hooks *server.Hooks, endpoint string) {
	hooks.AddOnRequestInitialization(func(ctx context.Context, _ any, message any) error {
		r.resume(ctx, g, endpoint, message)
		return nil
	})
	hooks.AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, res *mcp.InitializeResult) {
		s := server.ClientSessionFromContext(ctx)
		if s == nil || s.SessionID() == "" {
			return
		}
		id := g.clientIdentity(ctx)
		id.Name, id.Version = req.Params.ClientInfo.Name, req.Params.ClientInfo.Version
		now := r.clock.Now()
		r.mu.Lock()
		r.pruneSessionsLocked(now)
		r.sessions[s.SessionID()] = &SeenClient{Legacy: true, SessionID: s.SessionID(), Endpoint: endpoint, Client: id, Since: now, LastSeen: now}
		r.mu.Unlock()
		rec := domain.GatewaySession{ID: s.SessionID(), Scope: g.opts.Scope, Endpoint: endpoint, Client: id,
			CreatedAt: now, LastSeen: now}
		if res != nil {
			rec.ProtocolVersion = res.ProtocolVersion
		}
		r.remember(ctx, g, rec, req.Params.Capabilities)
	})
	// The store keeps a session whose stream or connection ends: the
	// client may carry on with its ID, which mcp-go keeps accepting.
	hooks.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		r.mu.Lock()
		delete(r.sessions, s.SessionID())
		delete(r.resumable, s.SessionID())
		r.mu.Unlock()
	})
	hooks.AddBeforeAny(func(ctx context.Context, _ any, method mcp.MCPMethod, _ any) {
		r.seen(ctx, g, endpoint, method == mcp.MethodToolsCall)
	})
}

// seen notes one request: a legacy session's last activity, or a
// 2026-07-28 client's identity; call counts a tools/call.
func (r *clientRegistry) seen(ctx context.Context, g *Gateway, endpoint string, call bool) {
	now := r.clock.Now()
	info := server.RequestProtocolInfoFromContext(ctx)
	modern := info != nil && info.Modern
	if !modern {
		s := server.ClientSessionFromContext(ctx)
		if s == nil {
			return
		}
		touch := false
		r.mu.Lock()
		// Another token's request with this session ID is not this
		// session's client (see resume).
		if c, ok := r.sessions[s.SessionID()]; ok && c.Client.Token == g.tokenName(ctx) {
			c.LastSeen = now
			if call {
				c.Calls++
			}
			touch = r.touchLocked(s.SessionID(), now)
		}
		r.mu.Unlock()
		if touch && g.opts.Sessions != nil {
			if err := g.opts.Sessions.TouchGatewaySession(ctx, g.opts.Scope, s.SessionID(), now); err != nil {
				g.opts.Log.Warn("record gateway session activity", "error", err)
			}
		}
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k := identityKey{endpoint, g.clientIdentity(ctx)}
	c, ok := r.identities[k]
	if !ok {
		r.pruneLocked(now)
		c = &SeenClient{Endpoint: endpoint, Client: k.id, Since: now}
		r.identities[k] = c
	}
	c.LastSeen = now
	if call {
		c.Calls++
	}
}

// pruneLocked forgets identities not seen for IdentityRetention, and the
// least recently seen beyond MaxRecentIdentities-1, making room for one.
func (r *clientRegistry) pruneLocked(now time.Time) {
	for k, c := range r.identities {
		if now.Sub(c.LastSeen) >= IdentityRetention {
			delete(r.identities, k)
		}
	}
	for len(r.identities) >= MaxRecentIdentities {
		var oldest identityKey
		var at time.Time
		first := true
		for k, c := range r.identities {
			if first || c.LastSeen.Before(at) {
				oldest, at, first = k, c.LastSeen, false
			}
		}
		delete(r.identities, oldest)
	}
}

// list returns the live sessions, then the recent identities, each
// newest first.
func (r *clientRegistry) list() []SeenClient {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clock.Now()
	out := make([]SeenClient, 0, len(r.sessions)+len(r.identities))
	for _, c := range r.sessions {
		out = append(out, *c)
	}
	for _, c := range r.identities {
		if now.Sub(c.LastSeen) < IdentityRetention {
			out = append(out, *c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Legacy != out[j].Legacy {
			return out[i].Legacy
		}
		if !out[i].LastSeen.Equal(out[j].LastSeen) {
			return out[i].LastSeen.After(out[j].LastSeen)
		}
		return out[i].Client.Name < out[j].Client.Name
	})
	return out
}

// track registers a request of token's as cancellable by revoking it; the
// returned function forgets it when the request ends.
func (r *clientRegistry) track(token string, cancel context.CancelFunc) func() {
	if token == "" {
		return func() {}
	}
	key := &cancel
	r.mu.Lock()
	if r.requests[token] == nil {
		r.requests[token] = map[*context.CancelFunc]struct{}{}
	}
	r.requests[token][key] = struct{}{}
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.requests[token], key)
		if len(r.requests[token]) == 0 {
			delete(r.requests, token)
		}
		r.mu.Unlock()
	}
}

// revoke ends every request of token in flight and forgets its sessions
// and identities; it returns the session IDs to close.
func (r *clientRegistry) revoke(token string) []string {
	r.mu.Lock()
	var cancels []context.CancelFunc
	for k := range r.requests[token] {
		cancels = append(cancels, *k)
	}
	delete(r.requests, token)
	var ids []string
	for id, c := range r.sessions {
		if c.Client.Token == token {
			ids = append(ids, id)
			delete(r.sessions, id)
		}
	}
	for id, rs := range r.resumable {
		if rs.rec.Client.Token == token {
			delete(r.resumable, id)
		}
	}
	for k := range r.identities {
		if k.id.Token == token {
			delete(r.identities, k)
		}
	}
	r.mu.Unlock()
	for _, cancel := range cancels {
		cancel()
	}
	return ids
}

// Clients lists the AI clients connected through the gateway: each live
// legacy session, and each 2026-07-28 client seen in the last
// IdentityRetention (at most MaxRecentIdentities), with the token it used
// and how many tools it called.
func (g *Gateway) Clients() []SeenClient { return g.clients.list() }

// CloseToken ends everything a revoked client token holds open: its event
// streams and calls in flight end, and its legacy sessions are forgotten,
// so a client that kept a stream open since before the revoke hears no
// more. New requests with the token are refused before they reach the
// gateway.
func (g *Gateway) CloseToken(name string) {
	if name == "" {
		return
	}
	ids := g.clients.revoke(name)
	if g.opts.Sessions != nil {
		// A token made later under the same name must not inherit them.
		if err := g.opts.Sessions.DeleteGatewaySessions(context.Background(), g.opts.Scope, name); err != nil {
			g.opts.Log.Warn("forget gateway sessions of a revoked token", "token", name, "error", err)
		}
	}
	g.mu.Lock()
	eps := []*endpoint{g.agg}
	for _, ep := range g.servers {
		eps = append(eps, ep)
	}
	g.mu.Unlock()
	for _, id := range ids {
		for _, ep := range eps {
			ep.mcp.UnregisterSession(context.Background(), id)
		}
	}
	for _, ep := range eps {
		ep.held.revoke(name)
	}
}
