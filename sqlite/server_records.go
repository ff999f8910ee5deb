package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ServerStore keeps each server's record, per scope, in server_records.
type ServerStore struct {
	db *DB
}

var _ domain.Store = (*ServerStore)(nil)

// ServerStore returns the domain.Store of server records kept in db.
func (db *DB) ServerStore() *ServerStore { return &ServerStore{db: db} }

// ServerRecords returns every record of the scope keyed by server name; a
// scope with none gets an empty map.
func (s *ServerStore) ServerRecords(ctx context.Context, scope domain.Scope) (map[string]domain.ServerRecord, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT server, state_set, disabled_reason, auto_reconnect, keep_alive_ms, updated_at
		FROM server_records WHERE user = ? AND workspace = ?`, scope.User, scope.Workspace)
	if err != nil {
		return nil, fmt.Errorf("load server records of %s: %w", scopeName(scope), err)
	}
	defer rows.Close()
	out := map[string]domain.ServerRecord{}
	for rows.Next() {
		var rec domain.ServerRecord
		var reason string
		var updatedMs int64
		var auto sql.NullBool
		var keepAliveMs sql.NullInt64
		if err := rows.Scan(&rec.Name, &rec.StateSet, &reason, &auto, &keepAliveMs, &updatedMs); err != nil {
			return nil, fmt.Errorf("load server records of %s: %w", scopeName(scope), err)
		}
		rec.DisabledReason = domain.DisabledReason(reason)
		if auto.Valid {
			rec.Overrides.AutoReconnect = &auto.Bool
		}
		if keepAliveMs.Valid {
			d := time.Duration(keepAliveMs.Int64) * time.Millisecond
			rec.Overrides.KeepAlive = &d
		}
		rec.UpdatedAt = time.UnixMilli(updatedMs)
		out[rec.Name] = rec
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load server records of %s: %w", scopeName(scope), err)
	}
	return out, nil
}

// SaveServerRecord inserts or replaces one record. UpdatedAt is kept to the
// millisecond.
func (s *ServerStore) SaveServerRecord(ctx context.Context, scope domain.Scope, rec domain.ServerRecord) error {
	var auto, keepAliveMs any // NULL unless overridden
	if o := rec.Overrides.AutoReconnect; o != nil {
		auto = *o
	}
	if o := rec.Overrides.KeepAlive; o != nil {
		keepAliveMs = o.Milliseconds()
	}
	_, err := s.db.write.ExecContext(ctx, `INSERT INTO server_records
			(user, workspace, server, state_set, disabled_reason, auto_reconnect, keep_alive_ms, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user, workspace, server) DO UPDATE SET
			state_set = excluded.state_set,
			disabled_reason = excluded.disabled_reason,
			auto_reconnect = excluded.auto_reconnect,
			keep_alive_ms = excluded.keep_alive_ms,
			updated_at = excluded.updated_at`,
		scope.User, scope.Workspace, rec.Name, rec.StateSet, string(rec.DisabledReason), auto, keepAliveMs, rec.UpdatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("save server record %s in %s: %w", rec.Name, scopeName(scope), err)
	}
	return nil
}

// PurgeServer deletes the server's record in the scope. A server with
// nothing stored is not an error: the result is the same. Its invocations
// and audit rows are kept on purpose: history outlives a removed server
// and leaves only through InvocationStore.PruneBefore. Later tables holding
// per-server state must be cleared here too, in one transaction with this
// one.
func (s *ServerStore) PurgeServer(ctx context.Context, scope domain.Scope, name string) error {
	_, err := s.db.write.ExecContext(ctx, `DELETE FROM server_records WHERE user = ? AND workspace = ? AND server = ?`,
		scope.User, scope.Workspace, name)
	if err != nil {
		return fmt.Errorf("purge server %s in %s: %w", name, scopeName(scope), err)
	}
	return nil
}

// scopeName says which scope an error is about.
func scopeName(s domain.Scope) string {
	return fmt.Sprintf("user %q workspace %q", s.User, s.Workspace)
}
