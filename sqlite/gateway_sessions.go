package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// GatewaySessionStore keeps the gateway's legacy sessions across restarts.
type GatewaySessionStore struct {
	db *DB
}

var _ domain.GatewaySessionStore = (*GatewaySessionStore)(nil)

// GatewaySessionStore returns the domain.GatewaySessionStore kept in db.
func (db *DB) GatewaySessionStore() *GatewaySessionStore { return &GatewaySessionStore{db: db} }

// SaveGatewaySession records s, replacing a session with its ID.
func (s *GatewaySessionStore) SaveGatewaySession(ctx context.Context, gs domain.GatewaySession) error {
	caps := string(gs.Capabilities)
	if len(gs.Capabilities) == 0 {
		caps = "{}"
	}
	_, err := s.db.write.ExecContext(ctx, `INSERT INTO gateway_sessions (user, workspace, id, endpoint, client_name, client_version, token,
			protocol_version, capabilities, created_at, last_seen_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user, workspace, id) DO UPDATE SET endpoint = excluded.endpoint, client_name = excluded.client_name,
			client_version = excluded.client_version, token = excluded.token, protocol_version = excluded.protocol_version,
			capabilities = excluded.capabilities, created_at = excluded.created_at, last_seen_at = excluded.last_seen_at`,
		gs.Scope.User, gs.Scope.Workspace, gs.ID, gs.Endpoint, gs.Client.Name, gs.Client.Version, gs.Client.Token,
		gs.ProtocolVersion, caps, gs.CreatedAt.UnixMilli(), gs.LastSeen.UnixMilli())
	if err != nil {
		return fmt.Errorf("save gateway session: %w", err)
	}
	return nil
}

// GatewaySession returns scope's session id.
func (s *GatewaySessionStore) GatewaySession(ctx context.Context, scope domain.Scope, id string) (domain.GatewaySession, error) {
	gs := domain.GatewaySession{ID: id, Scope: scope}
	var caps string
	var created, seen int64
	err := s.db.read.QueryRowContext(ctx, `SELECT endpoint, client_name, client_version, token, protocol_version, capabilities,
			created_at, last_seen_at
		FROM gateway_sessions WHERE user = ? AND workspace = ? AND id = ?`, scope.User, scope.Workspace, id).
		Scan(&gs.Endpoint, &gs.Client.Name, &gs.Client.Version, &gs.Client.Token, &gs.ProtocolVersion, &caps, &created, &seen)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.GatewaySession{}, fmt.Errorf("load gateway session: %w", domain.ErrGatewaySessionNotFound)
	}
	if err != nil {
		return domain.GatewaySession{}, fmt.Errorf("load gateway session: %w", err)
	}
	gs.Capabilities = []byte(caps)
	gs.CreatedAt, gs.LastSeen = time.UnixMilli(created).UTC(), time.UnixMilli(seen).UTC()
	return gs, nil
}

// TouchGatewaySession records the session's latest request; a session
// pruned meanwhile stays pruned.
func (s *GatewaySessionStore) TouchGatewaySession(ctx context.Context, scope domain.Scope, id string, at time.Time) error {
	if _, err := s.db.write.ExecContext(ctx, `UPDATE gateway_sessions SET last_seen_at = max(last_seen_at, ?)
		WHERE user = ? AND workspace = ? AND id = ?`, at.UnixMilli(), scope.User, scope.Workspace, id); err != nil {
		return fmt.Errorf("record gateway session activity: %w", err)
	}
	return nil
}

// DeleteGatewaySessions forgets every session of scope opened with token.
func (s *GatewaySessionStore) DeleteGatewaySessions(ctx context.Context, scope domain.Scope, token string) error {
	if _, err := s.db.write.ExecContext(ctx, `DELETE FROM gateway_sessions WHERE user = ? AND workspace = ? AND token = ?`,
		scope.User, scope.Workspace, token); err != nil {
		return fmt.Errorf("forget gateway sessions of token %q: %w", token, err)
	}
	return nil
}

// PruneGatewaySessions forgets sessions idle since before idleBefore, then
// all but the keep most recently seen.
func (s *GatewaySessionStore) PruneGatewaySessions(ctx context.Context, idleBefore time.Time, keep int) error {
	if _, err := s.db.write.ExecContext(ctx, `DELETE FROM gateway_sessions WHERE last_seen_at < ?`, idleBefore.UnixMilli()); err != nil {
		return fmt.Errorf("prune gateway sessions: %w", err)
	}
	if _, err := s.db.write.ExecContext(ctx, `DELETE FROM gateway_sessions WHERE (user, workspace, id) NOT IN (
			SELECT user, workspace, id FROM gateway_sessions ORDER BY last_seen_at DESC, created_at DESC, id LIMIT ?)`, max(keep, 0)); err != nil {
		return fmt.Errorf("prune gateway sessions: %w", err)
	}
	return nil
}
