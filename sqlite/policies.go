package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// PolicyStore keeps people's tool policies per scope and server.
type PolicyStore struct {
	db  *DB
	now func() time.Time
}

var _ domain.PolicyStore = (*PolicyStore)(nil)

// PolicyStore returns the domain.PolicyStore kept in db.
func (db *DB) PolicyStore() *PolicyStore { return &PolicyStore{db: db, now: time.Now} }

// ServerPolicies returns the choices made for server's tools.
func (s *PolicyStore) ServerPolicies(ctx context.Context, scope domain.Scope, server string) (domain.ServerPolicies, error) {
	sp := domain.ServerPolicies{Tools: map[string]domain.Policy{}}
	rows, err := s.db.read.QueryContext(ctx, `SELECT tool, policy FROM tool_policies
		WHERE user = ? AND workspace = ? AND server = ?`, scope.User, scope.Workspace, server)
	if err != nil {
		return sp, fmt.Errorf("load policies of %s in %s: %w", server, scopeName(scope), err)
	}
	defer rows.Close()
	for rows.Next() {
		var tool, p string
		if err := rows.Scan(&tool, &p); err != nil {
			return sp, fmt.Errorf("load policies of %s in %s: %w", server, scopeName(scope), err)
		}
		sp.Tools[tool] = domain.Policy(p)
	}
	if err := rows.Err(); err != nil {
		return sp, fmt.Errorf("load policies of %s in %s: %w", server, scopeName(scope), err)
	}
	var askAll int
	err = s.db.read.QueryRowContext(ctx, `SELECT coalesce(max(ask_all), 0) FROM server_policies
		WHERE user = ? AND workspace = ? AND server = ?`, scope.User, scope.Workspace, server).Scan(&askAll)
	if err != nil {
		return sp, fmt.Errorf("load ask-all of %s in %s: %w", server, scopeName(scope), err)
	}
	sp.AskAll = askAll == 1
	return sp, nil
}

// SaveToolPolicy records or replaces a tool's policy; the empty policy
// deletes the choice, returning the tool to its default.
func (s *PolicyStore) SaveToolPolicy(ctx context.Context, scope domain.Scope, server, tool string, p domain.Policy) error {
	var err error
	if p == "" {
		_, err = s.db.write.ExecContext(ctx, `DELETE FROM tool_policies WHERE user = ? AND workspace = ? AND server = ? AND tool = ?`,
			scope.User, scope.Workspace, server, tool)
	} else {
		_, err = s.db.write.ExecContext(ctx, `INSERT INTO tool_policies (user, workspace, server, tool, policy, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (user, workspace, server, tool) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at`,
			scope.User, scope.Workspace, server, tool, string(p), s.now().UnixMilli())
	}
	if err != nil {
		return fmt.Errorf("save policy of %s/%s in %s: %w", server, tool, scopeName(scope), err)
	}
	return nil
}

// SaveAskAll records whether every tool of server is asked about.
func (s *PolicyStore) SaveAskAll(ctx context.Context, scope domain.Scope, server string, askAll bool) error {
	_, err := s.db.write.ExecContext(ctx, `INSERT INTO server_policies (user, workspace, server, ask_all, updated_at)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (user, workspace, server) DO UPDATE SET ask_all = excluded.ask_all, updated_at = excluded.updated_at`,
		scope.User, scope.Workspace, server, askAll, s.now().UnixMilli())
	if err != nil {
		return fmt.Errorf("save ask-all of %s in %s: %w", server, scopeName(scope), err)
	}
	return nil
}
