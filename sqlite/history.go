package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// HistoryStore keeps servers' state changes and probe samples. Like the
// call history it outlives the servers: removing a server keeps its rows,
// and only PruneHistoryBefore deletes them.
type HistoryStore struct {
	db *DB
}

var _ domain.HistoryStore = (*HistoryStore)(nil)

// HistoryStore returns the domain.HistoryStore kept in db.
func (db *DB) HistoryStore() *HistoryStore { return &HistoryStore{db: db} }

// AppendHistory inserts changes and samples in one transaction on the
// writer connection. Times are kept to the millisecond.
func (s *HistoryStore) AppendHistory(ctx context.Context, scope domain.Scope, changes []domain.StateChange, samples []domain.ProbeSample) error {
	if len(changes) == 0 && len(samples) == 0 {
		return nil
	}
	tx, err := s.db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("append server history in %s: %w", scopeName(scope), err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if len(changes) > 0 {
		st, err := tx.PrepareContext(ctx, `INSERT INTO server_state_changes (user, workspace, server, at, state, phase, error)
			VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("append server history in %s: %w", scopeName(scope), err)
		}
		defer st.Close()
		for _, c := range changes {
			if _, err := st.ExecContext(ctx, scope.User, scope.Workspace, c.Server, c.At.UnixMilli(), string(c.State), string(c.Phase), c.Error); err != nil {
				return fmt.Errorf("append state change of %s in %s: %w", c.Server, scopeName(scope), err)
			}
		}
	}
	if len(samples) > 0 {
		st, err := tx.PrepareContext(ctx, `INSERT INTO probe_samples (user, workspace, server, at, latency_ns) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("append server history in %s: %w", scopeName(scope), err)
		}
		defer st.Close()
		for _, p := range samples {
			if _, err := st.ExecContext(ctx, scope.User, scope.Workspace, p.Server, p.At.UnixMilli(), max(p.Latency, 0).Nanoseconds()); err != nil {
				return fmt.Errorf("append probe sample of %s in %s: %w", p.Server, scopeName(scope), err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("append server history in %s: %w", scopeName(scope), err)
	}
	return nil
}

// StateChanges lists server's changes at or after since, oldest first,
// preceded by the newest change before since.
func (s *HistoryStore) StateChanges(ctx context.Context, scope domain.Scope, server string, since time.Time) ([]domain.StateChange, error) {
	ms := since.UnixMilli()
	rows, err := s.db.read.QueryContext(ctx, `SELECT * FROM (
			SELECT at, seq, state, phase, error FROM server_state_changes
			WHERE user = ?1 AND workspace = ?2 AND server = ?3 AND at < ?4
			ORDER BY at DESC, seq DESC LIMIT 1)
		UNION ALL
		SELECT at, seq, state, phase, error FROM server_state_changes
		WHERE user = ?1 AND workspace = ?2 AND server = ?3 AND at >= ?4
		ORDER BY at, seq`, scope.User, scope.Workspace, server, ms)
	if err != nil {
		return nil, fmt.Errorf("read state changes of %s in %s: %w", server, scopeName(scope), err)
	}
	defer rows.Close()
	var out []domain.StateChange
	for rows.Next() {
		var at, seq int64
		var c domain.StateChange
		if err := rows.Scan(&at, &seq, &c.State, &c.Phase, &c.Error); err != nil {
			return nil, fmt.Errorf("read state changes of %s in %s: %w", server, scopeName(scope), err)
		}
		c.Server, c.At = server, time.UnixMilli(at)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read state changes of %s in %s: %w", server, scopeName(scope), err)
	}
	return out, nil
}

// ProbeSamples lists the newest limit samples of server at or after since,
// oldest first.
func (s *HistoryStore) ProbeSamples(ctx context.Context, scope domain.Scope, server string, since time.Time, limit int) ([]domain.ProbeSample, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT at, latency_ns FROM probe_samples
		WHERE user = ? AND workspace = ? AND server = ? AND at >= ?
		ORDER BY at DESC, seq DESC LIMIT ?`, scope.User, scope.Workspace, server, since.UnixMilli(), max(limit, 0))
	if err != nil {
		return nil, fmt.Errorf("read probe samples of %s in %s: %w", server, scopeName(scope), err)
	}
	out, err := scanSamples(rows, server)
	if err != nil {
		return nil, fmt.Errorf("read probe samples of %s in %s: %w", server, scopeName(scope), err)
	}
	slices.Reverse(out)
	return out, nil
}

// RecentProbes lists the newest perServer samples of each of the scope's
// servers, oldest first within each server. It seeks each server in the
// index rather than ranking every stored sample, so start-up stays quick
// however long the retention.
func (s *HistoryStore) RecentProbes(ctx context.Context, scope domain.Scope, perServer int) ([]domain.ProbeSample, error) {
	rows, err := s.db.read.QueryContext(ctx, `WITH RECURSIVE servers(name) AS (
			SELECT min(server) FROM probe_samples WHERE user = ?1 AND workspace = ?2
			UNION ALL
			SELECT (SELECT min(server) FROM probe_samples WHERE user = ?1 AND workspace = ?2 AND server > name)
			FROM servers WHERE name IS NOT NULL)
		SELECT name FROM servers WHERE name IS NOT NULL`, scope.User, scope.Workspace)
	if err != nil {
		return nil, fmt.Errorf("read recent probe samples in %s: %w", scopeName(scope), err)
	}
	var servers []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read recent probe samples in %s: %w", scopeName(scope), err)
		}
		servers = append(servers, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read recent probe samples in %s: %w", scopeName(scope), err)
	}
	var out []domain.ProbeSample
	for _, name := range servers {
		samples, err := s.ProbeSamples(ctx, scope, name, time.Time{}, perServer)
		if err != nil {
			return nil, err
		}
		out = append(out, samples...)
	}
	return out, nil
}

// scanSamples reads rows of at and latency_ns, and of server unless
// server is given, and closes rows.
func scanSamples(rows *sql.Rows, server string) ([]domain.ProbeSample, error) {
	defer rows.Close()
	var out []domain.ProbeSample
	for rows.Next() {
		var at, ns int64
		p := domain.ProbeSample{Server: server}
		dest := []any{&at, &ns}
		if server == "" {
			dest = append(dest, &p.Server)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		p.At, p.Latency = time.UnixMilli(at), time.Duration(ns)
		out = append(out, p)
	}
	return out, rows.Err()
}

// PruneHistoryBefore deletes probe samples older than t and state changes
// older than t, except each server's newest change before t when it did
// not dispose of the server: the state the server was in at t.
func (s *HistoryStore) PruneHistoryBefore(ctx context.Context, t time.Time) (int64, error) {
	ms := t.UnixMilli()
	tx, err := s.db.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("prune server history: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	samples, err := tx.ExecContext(ctx, `DELETE FROM probe_samples WHERE at < ?`, ms)
	if err != nil {
		return 0, fmt.Errorf("prune probe samples: %w", err)
	}
	changes, err := tx.ExecContext(ctx, `DELETE FROM server_state_changes AS c WHERE c.at < ?1 AND (c.phase = ?2 OR EXISTS (
		SELECT 1 FROM server_state_changes AS n
		WHERE n.user = c.user AND n.workspace = c.workspace AND n.server = c.server AND n.at < ?1
			AND (n.at, n.seq) > (c.at, c.seq)))`, ms, string(domain.PhaseDisposed))
	if err != nil {
		return 0, fmt.Errorf("prune state changes: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("prune server history: %w", err)
	}
	a, _ := samples.RowsAffected()
	b, _ := changes.RowsAffected()
	return a + b, nil
}
