package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ClientTokenStore keeps the client tokens' names and hashes.
type ClientTokenStore struct {
	db *DB
}

var _ domain.ClientTokenStore = (*ClientTokenStore)(nil)

// ClientTokenStore returns the domain.ClientTokenStore kept in db.
func (db *DB) ClientTokenStore() *ClientTokenStore { return &ClientTokenStore{db: db} }

// ClientTokens returns every token, oldest first.
func (s *ClientTokenStore) ClientTokens(ctx context.Context) ([]domain.ClientToken, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT name, hash, created_at, last_used_at FROM client_tokens ORDER BY created_at, name`)
	if err != nil {
		return nil, fmt.Errorf("load client tokens: %w", err)
	}
	defer rows.Close()
	var out []domain.ClientToken
	for rows.Next() {
		var (
			t       domain.ClientToken
			hash    []byte
			created int64
			used    sql.NullInt64
		)
		if err := rows.Scan(&t.Name, &hash, &created, &used); err != nil {
			return nil, fmt.Errorf("load client tokens: %w", err)
		}
		if len(hash) != len(t.Hash) {
			return nil, fmt.Errorf("load client tokens: %q has a hash of %d bytes", t.Name, len(hash))
		}
		copy(t.Hash[:], hash)
		t.CreatedAt = time.UnixMilli(created).UTC()
		if used.Valid {
			t.LastUsedAt = time.UnixMilli(used.Int64).UTC()
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load client tokens: %w", err)
	}
	return out, nil
}

// InsertClientToken adds t; a name (or hash) already stored is
// domain.ErrClientTokenExists.
func (s *ClientTokenStore) InsertClientToken(ctx context.Context, t domain.ClientToken) error {
	var used any
	if !t.LastUsedAt.IsZero() {
		used = t.LastUsedAt.UnixMilli()
	}
	_, err := s.db.write.ExecContext(ctx, `INSERT INTO client_tokens (name, hash, created_at, last_used_at) VALUES (?, ?, ?, ?)`,
		t.Name, t.Hash[:], t.CreatedAt.UnixMilli(), used)
	if err != nil {
		var se *sqlitedrv.Error
		if errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE) {
			err = fmt.Errorf("%w: %w", domain.ErrClientTokenExists, err)
		}
		return fmt.Errorf("save client token %q: %w", t.Name, err)
	}
	return nil
}

// DeleteClientToken removes the token called name.
func (s *ClientTokenStore) DeleteClientToken(ctx context.Context, name string) error {
	res, err := s.db.write.ExecContext(ctx, `DELETE FROM client_tokens WHERE name = ?`, name)
	if err != nil {
		return fmt.Errorf("delete client token %q: %w", name, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("delete client token %q: %w", name, domain.ErrClientTokenNotFound)
	}
	return nil
}

// TouchClientToken records the token's latest use; a deleted token is
// left deleted.
func (s *ClientTokenStore) TouchClientToken(ctx context.Context, name string, at time.Time) error {
	if _, err := s.db.write.ExecContext(ctx, `UPDATE client_tokens SET last_used_at = ? WHERE name = ?`, at.UnixMilli(), name); err != nil {
		return fmt.Errorf("record use of client token %q: %w", name, err)
	}
	return nil
}
