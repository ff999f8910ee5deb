package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// unfinished is the SQL test for a call that has not ended: any status
// that is not final, including ones later versions may add.
const unfinished = `status NOT IN ('success', 'error', 'cancelled', 'denied')`

// InterruptOrphans ends, in one transaction, each unfinished invocation
// that sel selects and whose owner no longer runs: status error, code
// interrupted, ended now (never before it started), one version up, and
// an audit row like that of any finished call. Calls of a live owner are
// left alone; this process's own only with sel.IncludeOwn. Running it
// again finds nothing more to do.
func (s *InvocationStore) InterruptOrphans(ctx context.Context, sel domain.Interruption) ([]domain.Invocation, error) {
	where := []string{unfinished}
	var args []any
	if sel.Scope != nil {
		where, args = append(where, "user = ?", "workspace = ?"), append(args, sel.Scope.User, sel.Scope.Workspace)
	}
	if sel.ID != "" {
		where, args = append(where, "id = ?"), append(args, sel.ID)
	}
	cond := strings.Join(where, " AND ")

	// Writes still queued could be of the very calls selected, and so
	// could the journal of an owner that stopped since Open: calls it
	// answered are over, not interrupted.
	if err := s.db.writer.flush(ctx); err != nil {
		return nil, fmt.Errorf("interrupt calls: %w", err)
	}
	if err := s.db.replayJournals(ctx); err != nil {
		return nil, fmt.Errorf("interrupt calls: %w", err)
	}
	tx, err := s.db.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("interrupt calls: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	gone, err := s.stoppedOwners(ctx, tx, cond, args, sel.IncludeOwn)
	if err != nil || len(gone) == 0 {
		return nil, err
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(gone)), ", ")
	q := `UPDATE invocations SET status = ?, error_code = ?, error = ?, ended_at = max(?, started_at), version = version + 1
		WHERE ` + cond + ` AND owner IN (` + marks + `) RETURNING ` + invocationColumns
	qargs := append([]any{string(domain.InvocationError), domain.ErrorCodeInterrupted, domain.InterruptedMessage,
		sel.EndedAt.UnixMilli()}, args...)
	for _, o := range gone {
		qargs = append(qargs, o)
	}
	rows, err := tx.QueryContext(ctx, q, qargs...)
	if err != nil {
		return nil, fmt.Errorf("interrupt calls: %w", err)
	}
	var ended []domain.Invocation
	for rows.Next() {
		inv, err := scanInvocation(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("interrupt calls: %w", err)
		}
		ended = append(ended, inv)
	}
	if err := errors.Join(rows.Close(), rows.Err()); err != nil {
		return nil, fmt.Errorf("interrupt calls: %w", err)
	}
	for _, inv := range ended {
		rec := domain.AuditRecord{InvocationID: inv.ID, Scope: inv.Scope, ServerName: inv.ServerName, Tool: inv.Tool,
			ArgsSHA256: domain.ArgumentsHash(inv.Arguments), StartedAt: inv.StartedAt, EndedAt: inv.EndedAt,
			Outcome: inv.Status}
		if err := insertAudit(ctx, tx, rec); err != nil {
			return nil, fmt.Errorf("interrupt calls: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("interrupt calls: %w", err)
	}
	return ended, nil
}

// querier is a pool or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// stoppedOwners lists the owners of the calls cond selects that no longer
// run (and this process, when own is set).
func (s *InvocationStore) stoppedOwners(ctx context.Context, q querier, cond string, args []any, own bool) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT owner FROM invocations WHERE `+cond, args...)
	if err != nil {
		return nil, fmt.Errorf("interrupt calls: %w", err)
	}
	var owners []string
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			rows.Close()
			return nil, fmt.Errorf("interrupt calls: %w", err)
		}
		owners = append(owners, o)
	}
	if err := errors.Join(rows.Close(), rows.Err()); err != nil {
		return nil, fmt.Errorf("interrupt calls: %w", err)
	}
	var gone []string
	for _, o := range owners {
		if o == s.db.owner {
			if own {
				gone = append(gone, o)
			}
			continue
		}
		if !s.db.lock.alive(o) {
			gone = append(gone, o)
		}
	}
	return gone, nil
}
