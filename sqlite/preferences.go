package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// PreferenceStore keeps each user's dashboard preferences.
type PreferenceStore struct {
	db *DB
}

var _ domain.PreferenceStore = (*PreferenceStore)(nil)

// PreferenceStore returns the domain.PreferenceStore kept in db.
func (db *DB) PreferenceStore() *PreferenceStore { return &PreferenceStore{db: db} }

// Preferences returns every preference of user; none is an empty map.
func (s *PreferenceStore) Preferences(ctx context.Context, user string) (map[string]string, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT key, value FROM user_preferences WHERE user = ?`, user)
	if err != nil {
		return nil, fmt.Errorf("load preferences of %q: %w", user, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("load preferences of %q: %w", user, err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load preferences of %q: %w", user, err)
	}
	return out, nil
}

// SetPreference inserts or replaces one preference.
func (s *PreferenceStore) SetPreference(ctx context.Context, user, key, value string) error {
	_, err := s.db.write.ExecContext(ctx, `INSERT INTO user_preferences (user, key, value, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		user, key, value, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("save preference %s of %q: %w", key, user, err)
	}
	return nil
}
