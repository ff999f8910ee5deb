package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ApprovalStore keeps users' decisions about project servers.
type ApprovalStore struct {
	db *DB
}

var _ domain.ApprovalStore = (*ApprovalStore)(nil)

// ApprovalStore returns the domain.ApprovalStore kept in db.
func (db *DB) ApprovalStore() *ApprovalStore { return &ApprovalStore{db: db} }

// Approval returns the decision recorded for the server, if any.
func (s *ApprovalStore) Approval(ctx context.Context, user, projectRoot, server string) (domain.ApprovalDecision, string, bool, error) {
	var d, hash string
	err := s.db.read.QueryRowContext(ctx, `SELECT decision, config_hash FROM approvals
		WHERE user = ? AND project_root = ? AND server = ?`, user, projectRoot, server).Scan(&d, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", false, nil
	}
	if err != nil {
		return "", "", false, fmt.Errorf("load approval of %s in %s: %w", server, projectRoot, err)
	}
	return domain.ApprovalDecision(d), hash, true, nil
}

// SaveApproval records or replaces the decision.
func (s *ApprovalStore) SaveApproval(ctx context.Context, user, projectRoot, server, configHash string, d domain.ApprovalDecision) error {
	_, err := s.db.write.ExecContext(ctx, `INSERT INTO approvals (user, project_root, server, config_hash, decision, decided_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (user, project_root, server) DO UPDATE SET
			config_hash = excluded.config_hash, decision = excluded.decision, decided_at = excluded.decided_at`,
		user, projectRoot, server, configHash, string(d), time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("save approval of %s in %s: %w", server, projectRoot, err)
	}
	return nil
}
