package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// AppendAudit adds one row to audit_log. A trigger refuses any UPDATE of
// the table, so what is appended stays as written until retention deletes
// it.
func (s *InvocationStore) AppendAudit(ctx context.Context, rec domain.AuditRecord) error {
	if err := s.db.writer.commit(ctx, &write{audit: auditArgs(rec)}); err != nil {
		return fmt.Errorf("append audit of invocation %s in %s: %w", rec.InvocationID, scopeName(rec.Scope), err)
	}
	return nil
}

// insertAuditRow appends one audit row; its arguments come from auditArgs.
const insertAuditRow = `INSERT INTO audit_log
			(user, workspace, invocation_id, server, tool, args_sha256, started_at, ended_at, outcome)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`

func auditArgs(rec domain.AuditRecord) []any {
	return []any{rec.Scope.User, rec.Scope.Workspace, rec.InvocationID, rec.ServerName, rec.Tool, rec.ArgsSHA256,
		rec.StartedAt.UnixMilli(), rec.EndedAt.UnixMilli(), string(rec.Outcome)}
}

// execer is a pool or a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// insertAudit appends rec through db, so that recovery can end a call and
// write its trace in one transaction.
func insertAudit(ctx context.Context, db execer, rec domain.AuditRecord) error {
	_, err := db.ExecContext(ctx, insertAuditRow, auditArgs(rec)...)
	if err != nil {
		return fmt.Errorf("append audit of invocation %s in %s: %w", rec.InvocationID, scopeName(rec.Scope), err)
	}
	return nil
}

// PruneBefore deletes, across every scope and in one transaction, the
// invocations and audit rows that ended before t; invocations still
// running are kept whatever their age. It returns how many rows of both
// tables it deleted.
func (s *InvocationStore) PruneBefore(ctx context.Context, t time.Time) (int64, error) {
	if err := s.db.writer.flush(ctx); err != nil {
		return 0, fmt.Errorf("prune history: %w", err)
	}
	tx, err := s.db.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("prune history: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	cutoff := t.UnixMilli()
	var total int64
	for _, q := range []string{
		`DELETE FROM invocations WHERE ended_at IS NOT NULL AND ended_at < ?`,
		`DELETE FROM audit_log WHERE ended_at < ?`,
	} {
		res, err := tx.ExecContext(ctx, q, cutoff)
		if err != nil {
			return 0, fmt.Errorf("prune history: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, fmt.Errorf("prune history: %w", err)
		}
		total += n
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("prune history: %w", err)
	}
	return total, nil
}
