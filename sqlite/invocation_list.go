package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Page sizes of Invocations.
const (
	DefaultInvocationLimit = 50
	MaxInvocationLimit     = 200
)

// Invocations lists the scope's invocations newest first: by start time,
// then by id for calls started in the same millisecond, so pages never
// skip or repeat a row. f.Before continues after the invocation with that
// id; an id the scope does not have is ErrInvocationNotFound. A limit of
// zero or less is DefaultInvocationLimit; more than MaxInvocationLimit is
// cut to it. With f.Preview, a result larger than a card shows is read as
// its stored preview and the invocation says so (ResultPreviewed).
func (s *InvocationStore) Invocations(ctx context.Context, scope domain.Scope, f domain.InvocationFilter) ([]domain.Invocation, error) {
	if err := s.db.writer.flush(ctx); err != nil {
		return nil, fmt.Errorf("list invocations in %s: %w", scopeName(scope), err)
	}
	where, args := filterWhere(scope, f)
	if f.Before != "" {
		var startedMs int64
		err := s.db.read.QueryRowContext(ctx, `SELECT started_at FROM invocations WHERE user = ? AND workspace = ? AND id = ?`,
			scope.User, scope.Workspace, f.Before).Scan(&startedMs)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("list invocations before %q in %s: %w", f.Before, scopeName(scope), domain.ErrInvocationNotFound)
		}
		if err != nil {
			return nil, fmt.Errorf("list invocations in %s: %w", scopeName(scope), err)
		}
		where, args = append(where, "(started_at, id) < (?, ?)"), append(args, startedMs, f.Before)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultInvocationLimit
	}
	limit = min(limit, MaxInvocationLimit)
	columns := invocationColumns + `, 0`
	if f.Preview {
		columns = previewColumns
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+columns+` FROM invocations
		WHERE `+strings.Join(where, " AND ")+`
		ORDER BY started_at DESC, id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("list invocations in %s: %w", scopeName(scope), err)
	}
	defer rows.Close()
	var out []domain.Invocation
	for rows.Next() {
		var previewed bool
		inv, err := scanInvocation(rows, &previewed)
		if err != nil {
			return nil, fmt.Errorf("list invocations in %s: %w", scopeName(scope), err)
		}
		inv.ResultPreviewed = previewed
		out = append(out, inv)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list invocations in %s: %w", scopeName(scope), err)
	}
	return out, nil
}

// previewColumns is invocationColumns with the result read as its preview
// where one is stored, and whether it was.
var previewColumns = strings.Replace(invocationColumns, " result,", " coalesce(result_preview, result),", 1) +
	", result_preview IS NOT NULL"

// filterWhere turns f's fields but Before and Limit into SQL conditions on
// invocations and their arguments. StartedFrom and StartedBefore are
// compared in milliseconds, as started_at is stored.
func filterWhere(scope domain.Scope, f domain.InvocationFilter) ([]string, []any) {
	where := []string{"user = ?", "workspace = ?"}
	args := []any{scope.User, scope.Workspace}
	if f.ServerName != "" {
		where, args = append(where, "server = ?"), append(args, f.ServerName)
	}
	if f.Tool != "" {
		where, args = append(where, "tool = ?"), append(args, f.Tool)
	}
	if f.Status != "" {
		where, args = append(where, "status = ?"), append(args, string(f.Status))
	}
	if f.Source != "" {
		where, args = append(where, "source = ?"), append(args, f.Source)
	}
	if f.Client != "" {
		where, args = append(where, "client_name = ?"), append(args, f.Client)
	}
	if !f.StartedFrom.IsZero() {
		where, args = append(where, "started_at >= ?"), append(args, f.StartedFrom.UnixMilli())
	}
	if !f.StartedBefore.IsZero() {
		where, args = append(where, "started_at < ?"), append(args, f.StartedBefore.UnixMilli())
	}
	return where, args
}
