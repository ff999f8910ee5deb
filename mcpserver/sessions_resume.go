package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Bounds of the legacy sessions the gateway keeps across restarts
// (Options.Sessions) and in memory for the Connect page.
const (
	MaxSessions      = 1000
	SessionRetention = 24 * time.Hour
	// sessionTouchEvery is how stale a stored session's last-seen time
	// may get: recording every request would put a disk write on the call
	// path, and pruning only needs to know the day.
	sessionTouchEvery = 10 * time.Minute
)

// resumable is what a legacy session's requests are served with when the
// session object mcp-go hands them carries no clientInfo: after a restart
// mcp-go keeps serving the session ID (its default ID manager accepts any
// well-formed one) with a fresh, empty session for each request.
type resumable struct {
	rec     domain.GatewaySession
	caps    mcp.ClientCapabilities
	touched time.Time // the LastSeen last written to the store
}

// remember stores the session initialize just opened, and prunes the
// store. A failure only costs the identity after a restart, so it is
// logged, never the client's problem.
func (r *clientRegistry) remember(ctx context.Context, g *Gateway, rec domain.GatewaySession, caps mcp.ClientCapabilities) {
	r.mu.Lock()
	r.resumable[rec.ID] = &resumable{rec: rec, caps: caps, touched: rec.LastSeen}
	delete(r.unknown, rec.ID)
	r.mu.Unlock()
	if g.opts.Sessions == nil {
		return
	}
	raw, err := json.Marshal(caps)
	if err != nil {
		raw = []byte(`{}`)
	}
	rec.Capabilities = raw
	if err := g.opts.Sessions.SaveGatewaySession(ctx, rec); err != nil {
		g.opts.Log.Warn("gateway session will lose its client's name at a restart", "error", err)
		return
	}
	if err := g.opts.Sessions.PruneGatewaySessions(ctx, rec.LastSeen.Add(-SessionRetention), MaxSessions); err != nil {
		g.opts.Log.Warn("prune gateway sessions", "error", err)
	}
}

// resume gives a request of a legacy session whose session object is
// empty the identity the session was opened with: its clientInfo,
// capabilities and protocol version, from memory or else from the store.
// Only a request let in with the token the session was opened with gets
// it; for any other the session stays unknown.
func (r *clientRegistry) resume(ctx context.Context, g *Gateway, endpoint string, message any) {
	s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok || s.SessionID() == "" {
		return
	}
	if ci := s.GetClientInfo(); ci.Name != "" || ci.Version != "" {
		return // initialized in this process: mcp-go has it all
	}
	id := s.SessionID()
	rs := r.resumableSession(ctx, g, id, message)
	if rs == nil || rs.rec.Endpoint != endpoint || rs.rec.Client.Token != g.tokenName(ctx) {
		return
	}
	s.SetClientInfo(mcp.Implementation{Name: rs.rec.Client.Name, Version: rs.rec.Client.Version})
	s.SetClientCapabilities(rs.caps)
	if v, ok := s.(interface{ SetProtocolVersion(string) }); ok {
		v.SetProtocolVersion(rs.rec.ProtocolVersion)
	}
	now := r.clock.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, live := r.sessions[id]; !live {
		r.pruneSessionsLocked(now)
		r.sessions[id] = &SeenClient{Legacy: true, SessionID: id, Endpoint: endpoint, Client: rs.rec.Client,
			Since: rs.rec.CreatedAt, LastSeen: now}
	}
}

// resumableSession returns what restores session id, loading it from the
// store on the session's first request since the gateway started; nil
// when nobody knows the session, or message opens it.
func (r *clientRegistry) resumableSession(ctx context.Context, g *Gateway, id string, message any) *resumable {
	r.mu.Lock()
	rs, ok := r.resumable[id]
	_, unknown := r.unknown[id]
	r.mu.Unlock()
	if ok || unknown || g.opts.Sessions == nil || opens(message) {
		return rs
	}
	rec, err := g.opts.Sessions.GatewaySession(ctx, g.opts.Scope, id)
	if err != nil {
		if !errors.Is(err, domain.ErrGatewaySessionNotFound) {
			g.opts.Log.Warn("gateway session resumed without its client's name", "error", err)
			return nil
		}
		r.mu.Lock()
		if len(r.unknown) >= MaxSessions {
			clear(r.unknown)
		}
		r.unknown[id] = struct{}{}
		r.mu.Unlock()
		return nil
	}
	rs = &resumable{rec: rec, touched: rec.LastSeen}
	if err := json.Unmarshal(rec.Capabilities, &rs.caps); err != nil {
		g.opts.Log.Warn("gateway session resumed without its client's capabilities", "error", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if held, ok := r.resumable[id]; ok {
		return held // another request loaded it meanwhile
	}
	if len(r.resumable) >= MaxSessions {
		for k := range r.resumable {
			if _, live := r.sessions[k]; !live {
				delete(r.resumable, k)
			}
		}
	}
	r.resumable[id] = rs
	return rs
}

// opens reports whether message is an initialize request, whose session
// ID is new.
func opens(message any) bool {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return false
	}
	var m struct {
		Method mcp.MCPMethod `json:"method"`
	}
	return json.Unmarshal(raw, &m) == nil && m.Method == mcp.MethodInitialize
}

// touchLocked reports whether session id's last-seen time should be
// written to the store now, and if so notes it as written.
func (r *clientRegistry) touchLocked(id string, now time.Time) bool {
	rs, ok := r.resumable[id]
	if !ok || now.Sub(rs.touched) < sessionTouchEvery {
		return false
	}
	rs.touched = now
	return true
}

// pruneSessionsLocked forgets, from memory only, the sessions idle for
// SessionRetention and the least recently seen beyond MaxSessions-1,
// making room for one. A forgotten session that is still stored comes
// back on its next request.
func (r *clientRegistry) pruneSessionsLocked(now time.Time) {
	for id, c := range r.sessions {
		if now.Sub(c.LastSeen) >= SessionRetention {
			delete(r.sessions, id)
			delete(r.resumable, id)
		}
	}
	for len(r.sessions) >= MaxSessions {
		var oldest string
		var at time.Time
		first := true
		for id, c := range r.sessions {
			if first || c.LastSeen.Before(at) {
				oldest, at, first = id, c.LastSeen, false
			}
		}
		delete(r.sessions, oldest)
		delete(r.resumable, oldest)
	}
}

// tokenName is the name of the token ctx's request was let in with.
func (g *Gateway) tokenName(ctx context.Context) string {
	if g.opts.TokenName == nil {
		return ""
	}
	return g.opts.TokenName(ctx)
}
