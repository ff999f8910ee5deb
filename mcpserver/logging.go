package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// levelOrder ranks the logging levels from most to least detailed.
var levelOrder = []mcp.LoggingLevel{
	mcp.LoggingLevelDebug, mcp.LoggingLevelInfo, mcp.LoggingLevelNotice, mcp.LoggingLevelWarning,
	mcp.LoggingLevelError, mcp.LoggingLevelCritical, mcp.LoggingLevelAlert, mcp.LoggingLevelEmergency,
}

// ClientLogLevels takes the level a relay of a server's log messages asks
// the server for, "" when it no longer asks (*domain.ServerLogs).
type ClientLogLevels interface {
	SetClientLevel(ctx context.Context, server, client, level string) error
}

// gatewayClient is the name the gateway's wishes go by in ClientLogLevels:
// it adds up its own sessions' levels first.
const gatewayClient = "gateway"

// listeners are the sessions of one endpoint that can receive log
// messages, with the level each asked for (mcp-go filters by that level;
// the gateway only needs it to choose the upstream level).
type listeners struct {
	mu       sync.Mutex // guards sessions and levels
	sessions map[string]server.ClientSession
	levels   map[string]mcp.LoggingLevel // only sessions that sent logging/setLevel
}

// addLogging makes ep pass servers' log messages to its sessions and
// tell the servers the most detailed level its sessions asked for. These
// are legacy sessions only: 2026-07-28 has no channel for log messages
// that belong to no request of the client (see listen.go).
func (ep *endpoint) addLogging(hooks *server.Hooks) {
	ep.logs.sessions = map[string]server.ClientSession{}
	ep.logs.levels = map[string]mcp.LoggingLevel{}
	hooks.AddOnRegisterSession(func(_ context.Context, s server.ClientSession) {
		ep.logs.mu.Lock()
		defer ep.logs.mu.Unlock()
		ep.logs.sessions[s.SessionID()] = s
	})
	hooks.AddOnUnregisterSession(func(ctx context.Context, s server.ClientSession) {
		ep.logs.mu.Lock()
		delete(ep.logs.sessions, s.SessionID())
		_, asked := ep.logs.levels[s.SessionID()]
		delete(ep.logs.levels, s.SessionID())
		ep.logs.mu.Unlock()
		// A session that asked for more detail is gone: the servers go
		// back to what the others (and the drawer) want. Asking a server
		// is a network round trip, and mcp-go tears the session down
		// while this hook runs, so it is not waited for.
		if asked {
			go ep.g.syncLogLevels(context.WithoutCancel(ctx), ep.server)
		}
	})
	hooks.AddAfterSetLevel(func(ctx context.Context, _ any, req *mcp.SetLevelRequest, _ *mcp.EmptyResult) {
		s := server.ClientSessionFromContext(ctx)
		if s == nil {
			return
		}
		ep.logs.mu.Lock()
		ep.logs.levels[s.SessionID()] = req.Params.Level
		ep.logs.mu.Unlock()
		ep.g.syncLogLevels(ctx, ep.server)
	})
}

// mostDetailed returns the most detailed level any of the endpoint's
// sessions asked for, or "" when none did.
func (l *listeners) mostDetailed() mcp.LoggingLevel {
	l.mu.Lock()
	defer l.mu.Unlock()
	best := -1
	for _, lv := range l.levels {
		for i, o := range levelOrder {
			if o == lv && (best < 0 || i < best) {
				best = i
			}
		}
	}
	if best < 0 {
		return ""
	}
	return levelOrder[best]
}

// send passes one message to every session whose level lets it through.
func (l *listeners) send(mcpSrv *server.MCPServer, level mcp.LoggingLevel, params map[string]any) {
	l.mu.Lock()
	var ids []string
	for id, s := range l.sessions {
		if sl, ok := s.(server.SessionWithLogging); ok && s.Initialized() && level.ShouldSendTo(sl.GetLogLevel()) {
			ids = append(ids, id)
		}
	}
	l.mu.Unlock()
	for _, id := range ids {
		_ = mcpSrv.SendNotificationToSpecificClient(id, string(mcp.MethodNotificationMessage), params)
	}
}

// syncLogLevels asks each affected server for the most detailed level
// any listener wants: those of its own endpoint and of the aggregated
// one. changed is the endpoint whose sessions changed ("" is /mcp, which
// listens to every server). A level is passed on only when it changed,
// and "" (no listener asks any more) only to LogLevels.
func (g *Gateway) syncLogLevels(ctx context.Context, changed string) {
	g.mu.Lock()
	var servers []string
	if changed != "" {
		servers = []string{changed}
	} else {
		for _, in := range g.inputs {
			servers = append(servers, in.Status.ServerName)
		}
	}
	eps := map[string]*endpoint{}
	for _, s := range servers {
		eps[s] = g.servers[s]
	}
	g.mu.Unlock()
	agg := g.agg.logs.mostDetailed()
	for _, s := range servers {
		level := agg
		if ep := eps[s]; ep != nil {
			if own := ep.logs.mostDetailed(); own != "" && (level == "" || rank(own) < rank(level)) {
				level = own
			}
		}
		g.levelMu.Lock()
		if g.upstreamLevels == nil {
			g.upstreamLevels = map[string]mcp.LoggingLevel{}
		}
		prev, known := g.upstreamLevels[s]
		same := prev == level && (known || level == "")
		g.upstreamLevels[s] = level
		g.levelMu.Unlock()
		if same {
			continue
		}
		if err := g.askLevel(context.WithoutCancel(ctx), s, level); err != nil {
			g.opts.Log.Warn("gateway cannot set a server's log level", "server", s, "level", level, "error", err)
			g.levelMu.Lock()
			delete(g.upstreamLevels, s)
			g.levelMu.Unlock()
		}
	}
}

// askLevel passes the level the gateway's sessions want of server on: to
// LogLevels, which adds the drawer's, or straight to the server. "" means
// they no longer want any, which only LogLevels can act on.
func (g *Gateway) askLevel(ctx context.Context, server string, level mcp.LoggingLevel) error {
	if g.opts.LogLevels != nil {
		return g.opts.LogLevels.SetClientLevel(ctx, server, gatewayClient, string(level))
	}
	if level == "" {
		return nil
	}
	return g.opts.Fleet.SetLogLevel(ctx, server, string(level))
}

func rank(l mcp.LoggingLevel) int {
	for i, o := range levelOrder {
		if o == l {
			return i
		}
	}
	return len(levelOrder)
}

// forwardMessages passes every server's log messages to the sessions of
// its endpoint and of the aggregated one (there with the server's name
// leading the logger, so a client can tell servers apart), and its
// resource updates to the sessions subscribed to them. It returns when
// ctx ends.
func (g *Gateway) forwardMessages(ctx context.Context, feed *domain.ServerNotifications) {
	sub := feed.Subscribe()
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case msg := <-sub.C():
			switch msg.Method {
			case domain.NotifyMessage:
				g.forwardMessage(msg)
			case domain.NotifyResourceUpdated:
				g.forwardUpdate(msg)
			}
		}
	}
}

func (g *Gateway) forwardMessage(msg domain.ServerNotification) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(msg.Params, &fields); err != nil {
		return
	}
	var level mcp.LoggingLevel
	if err := json.Unmarshal(fields["level"], &level); err != nil {
		return
	}
	own := make(map[string]any, len(fields))
	for k, v := range fields {
		own[k] = v
	}
	g.mu.Lock()
	exposed := g.exposed[msg.Server]
	ep := g.servers[msg.Server]
	g.mu.Unlock()
	if ep != nil {
		ep.logs.send(ep.mcp, level, own)
	}
	if !exposed {
		return
	}
	logger := msg.Server
	var upstream string
	if json.Unmarshal(fields["logger"], &upstream) == nil && upstream != "" {
		logger += "/" + upstream
	}
	agg := make(map[string]any, len(own)+1)
	for k, v := range own {
		agg[k] = v
	}
	agg["logger"] = logger
	g.agg.logs.send(g.agg.mcp, level, agg)
}

// relevel asks servers that became exposed (connected again, perhaps
// with a fresh session that forgot its level) for the level listeners
// want.
func (g *Gateway) relevel(prev, next map[string]bool) {
	for s := range next {
		if prev[s] {
			continue
		}
		g.levelMu.Lock()
		delete(g.upstreamLevels, s)
		g.levelMu.Unlock()
		go g.syncLogLevels(context.Background(), s)
	}
}
