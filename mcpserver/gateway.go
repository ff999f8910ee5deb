// Package mcpserver is the MCP server side of Switchboard, the gateway AI
// clients connect to: an adapter over mark3labs/mcp-go's server that
// serves the domain's catalogue (every connected, allowed server's tools,
// prompts, resources and templates) and runs calls through the invocation
// service, so each one is a card. It serves both protocol eras over
// streamable HTTP: legacy initialize sessions and 2026-07-28 requests.
package mcpserver

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DefaultDebounce is how long list changes settle before clients hear of
// them: a reload or a reconnect publishes several snapshots in a row.
const DefaultDebounce = 250 * time.Millisecond

// Options wires a Gateway.
type Options struct {
	Fleet       *domain.Fleet       // required
	Invocations *domain.Invocations // required
	// Scope is whose servers and invocations a client reaches: the same
	// scope the dashboard acts in for the token's owner.
	Scope    domain.Scope
	Clock    domain.Clock // nil means the system clock
	Log      *slog.Logger // nil discards
	Debounce time.Duration
	// Version is announced to clients in serverInfo.
	Version string
	// TokenName returns the name of the token a request was let in with
	// (never the secret), which each call records as its client's token;
	// nil records none. The HTTP layer that authenticates puts it in the
	// request's context.
	TokenName func(context.Context) string
	// Policies hides the tools a person chose to keep from AI clients
	// (policy "hidden"); nil shows every tool. Whoever changes a policy
	// calls Refresh, since that publishes no status.
	Policies ToolFilter
	// Notifications is the feed of servers' log messages and resource
	// updates that Run passes on to clients; nil passes none.
	Notifications *domain.ServerNotifications
	// LogLevels combines the level the gateway's clients ask a server for
	// with the one a person picked in its drawer (*domain.ServerLogs), so
	// neither overrides the other; nil asks the servers directly.
	LogLevels ClientLogLevels
	// Sessions keeps legacy sessions' client identities across restarts;
	// nil forgets them, so a session resumed after a restart has no
	// client name.
	Sessions domain.GatewaySessionStore
	// StateKey (StateKeySize bytes, see LoadStateKey) seals the
	// requestState 2026-07-28 clients echo back when a server asks them
	// something during a call; nil uses a key for this run only.
	StateKey []byte
}

// ToolFilter keeps the tools AI clients may see (*domain.Policies).
type ToolFilter interface {
	VisibleTools(ctx context.Context, scope domain.Scope, server string, tools []domain.Tool) ([]domain.Tool, error)
}

// Gateway serves the aggregated endpoint and one endpoint per server.
type Gateway struct {
	opts Options
	agg  *endpoint

	closing   context.Context // ended by Close: every MCP request ends
	closeAll  context.CancelFunc
	refreshMu sync.Mutex // serializes refreshes, so endpoints never apply an older list after a newer one
	mu        sync.Mutex // guards exposed, inputs, servers
	exposed   map[string]bool
	inputs    []domain.CatalogueServer // the exposed servers at the last refresh
	servers   map[string]*endpoint     // per-server endpoints, made on first use
	clients   *clientRegistry          // sessions and identities for the Connect page

	levelMu        sync.Mutex                  // guards upstreamLevels
	upstreamLevels map[string]mcp.LoggingLevel // the level last sent to each server

	upstream upstreamSubs // servers' resources clients subscribed to, shared among them
}

// New returns a gateway whose lists reflect the fleet as it is now; Run
// keeps them current.
func New(opts Options) *Gateway {
	if opts.Clock == nil {
		opts.Clock = domain.SystemClock{}
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	g := &Gateway{opts: opts, exposed: map[string]bool{}, servers: map[string]*endpoint{}}
	g.closing, g.closeAll = context.WithCancel(context.Background())
	g.clients = newClientRegistry(opts.Clock)
	g.agg = newEndpoint(g, "")
	g.Refresh()
	return g
}

// Aggregated is the handler of /mcp.
func (g *Gateway) Aggregated() http.Handler { return g.agg.handler }

// Server returns the handler of /mcp/{server}, or false when the fleet
// has no server of that name.
func (g *Gateway) Server(name string) (http.Handler, bool) {
	if _, err := g.opts.Fleet.Status(name); err != nil {
		return nil, false
	}
	g.refreshMu.Lock()
	defer g.refreshMu.Unlock()
	g.mu.Lock()
	ep, ok := g.servers[name]
	if !ok {
		// Made for a request, so active from the start.
		ep = newEndpoint(g, name)
		ep.active.Store(true)
		g.servers[name] = ep
	}
	inputs := g.inputs
	g.mu.Unlock()
	if !ok {
		ep.sync(inputs)
	}
	return ep.handler, true
}

// Refresh rebuilds every endpoint's lists from the fleet now. An endpoint
// whose lists did not change tells its clients nothing.
func (g *Gateway) Refresh() {
	g.refreshMu.Lock()
	defer g.refreshMu.Unlock()
	g.mu.Lock()
	var inputs []domain.CatalogueServer
	next := map[string]bool{}
	for _, st := range g.opts.Fleet.Hub().List() {
		if !domain.Exposable(st, g.exposed[st.ServerName]) {
			continue
		}
		caps, err := g.opts.Fleet.Capabilities(st.ServerName)
		if err != nil {
			continue // removed between the two reads
		}
		if g.opts.Policies != nil {
			visible, err := g.opts.Policies.VisibleTools(context.Background(), g.opts.Scope, st.ServerName, caps.Tools)
			if err != nil {
				// A hidden tool must never leak: without its policies the
				// server shows no tools until the next refresh.
				g.opts.Log.Error("gateway cannot read tool policies", "server", st.ServerName, "error", err)
				visible = nil
			}
			caps.Tools = visible
		}
		next[st.ServerName] = true
		inputs = append(inputs, domain.CatalogueServer{Status: st, Caps: caps})
	}
	prev := g.exposed
	g.exposed, g.inputs = next, inputs
	eps := make([]*endpoint, 0, len(g.servers)+1)
	eps = append(eps, g.agg)
	for _, ep := range g.servers {
		eps = append(eps, ep)
	}
	g.mu.Unlock()
	for _, ep := range eps {
		ep.sync(inputs)
	}
	g.relevel(prev, next)
	g.renewSubscriptions(prev, inputs)
}

// Run refreshes the lists whenever the fleet's statuses change (a server
// connects, disconnects, is reloaded, or re-lists after list_changed),
// at most once per debounce period. It returns when ctx ends.
func (g *Gateway) Run(ctx context.Context) {
	if g.opts.Notifications != nil {
		go g.forwardMessages(ctx, g.opts.Notifications)
	}
	sub := g.opts.Fleet.Hub().Subscribe()
	defer sub.Close()
	changes := make(chan struct{}, 1)
	go func() {
		// A snapshot that only reports a keep-alive probe changes nothing
		// the gateway lists; 200 servers probing every 30 s would
		// otherwise rebuild every list several times a second.
		seen := map[string]domain.Status{}
		for {
			sts, err := sub.Next(ctx)
			if err != nil {
				return
			}
			changed := false
			for _, st := range sts {
				if prev, ok := seen[st.ServerName]; !ok || !st.OnlyProbedSince(prev) {
					changed = true
				}
				if st.Phase == domain.PhaseDisposed {
					delete(seen, st.ServerName)
				} else {
					seen[st.ServerName] = st
				}
			}
			if !changed {
				continue
			}
			select {
			case changes <- struct{}{}:
			default:
			}
		}
	}()
	var timer domain.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case <-changes:
			// The first change arms the timer and later ones ride along:
			// the refresh reads the newest state when it fires, so a burst
			// costs clients one notification and a steady trickle of
			// snapshots can never postpone it forever.
			if timer == nil {
				timer = g.opts.Clock.NewTimer(g.opts.Debounce)
				fire = timer.C()
			}
		case <-fire:
			timer, fire = nil, nil
			g.Refresh()
		}
	}
}

// Close ends every MCP request in flight, event streams included (they
// would otherwise hold http.Server.Shutdown until its deadline), and
// forgets the sessions. Calls still running are cancelled and end as
// cancelled cards.
func (g *Gateway) Close(ctx context.Context) {
	g.closeAll()
	g.mu.Lock()
	eps := []*endpoint{g.agg}
	for _, ep := range g.servers {
		eps = append(eps, ep)
	}
	g.mu.Unlock()
	for _, ep := range eps {
		ep.http.CloseSessions(ctx)
	}
}

// untilClosed ends a request's context when the gateway closes.
func (g *Gateway) untilClosed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.closing.Err() != nil {
			http.Error(w, "switchboard is shutting down", http.StatusServiceUnavailable)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		if g.opts.TokenName != nil {
			// Revoking the token ends this request, event streams included.
			defer g.clients.track(g.opts.TokenName(ctx), cancel)()
		}
		// A callback rather than a goroutine per request, which cost each
		// call a goroutine start and a wake-up at its end.
		defer context.AfterFunc(g.closing, cancel)()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
