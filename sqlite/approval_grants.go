package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// GrantStore keeps late approvals until their client's retry uses them.
type GrantStore struct {
	db *DB
}

var _ domain.GrantStore = (*GrantStore)(nil)

// GrantStore returns the domain.GrantStore kept in db.
func (db *DB) GrantStore() *GrantStore { return &GrantStore{db: db} }

// AddGrant records g, replacing the grant held for the same call.
func (s *GrantStore) AddGrant(ctx context.Context, g domain.Grant) error {
	_, err := s.db.write.ExecContext(ctx, `INSERT INTO approval_grants (user, workspace, token, server, tool, args_hash, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user, workspace, token, server, tool, args_hash) DO UPDATE SET expires_at = excluded.expires_at`,
		g.Scope.User, g.Scope.Workspace, g.Token, g.Server, g.Tool, g.ArgsHash, g.Expires.UnixMilli())
	if err != nil {
		return fmt.Errorf("save approval grant for %s/%s: %w", g.Server, g.Tool, err)
	}
	return nil
}

// TakeGrant deletes key's grant if it is valid at now and reports whether
// it did. One DELETE both finds and uses up the grant, and the single
// writer connection runs it whole, so of two concurrent takes exactly one
// gets it. Expired grants of every call are dropped on the way.
func (s *GrantStore) TakeGrant(ctx context.Context, key domain.Grant, now time.Time) (bool, error) {
	if _, err := s.db.write.ExecContext(ctx, `DELETE FROM approval_grants WHERE expires_at <= ?`, now.UnixMilli()); err != nil {
		return false, fmt.Errorf("drop expired approval grants: %w", err)
	}
	res, err := s.db.write.ExecContext(ctx, `DELETE FROM approval_grants
		WHERE user = ? AND workspace = ? AND token = ? AND server = ? AND tool = ? AND args_hash = ? AND expires_at > ?`,
		key.Scope.User, key.Scope.Workspace, key.Token, key.Server, key.Tool, key.ArgsHash, now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("take approval grant for %s/%s: %w", key.Server, key.Tool, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("take approval grant for %s/%s: %w", key.Server, key.Tool, err)
	}
	return n == 1, nil
}
