package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations returns the schema changes built into the binary.
func migrations() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}

// migration is one schema change, read from a file named
// <version>_<description>.sql. Versions only ever grow: a released file is
// never edited, a later one changes what it did.
type migration struct {
	version int
	name    string
	sql     string
}

var migrationName = regexp.MustCompile(`^([0-9]+)_[a-z0-9_]+\.sql$`)

// loadMigrations reads every .sql file of fsys in version order and
// refuses names it cannot order, so a badly named file fails the tests
// instead of being skipped in production.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, name := range names {
		m := migrationName.FindStringSubmatch(name)
		if m == nil {
			return nil, fmt.Errorf("migration %s: name must be <version>_<lower_case_description>.sql", name)
		}
		version, err := strconv.Atoi(m[1])
		if err != nil || version < 1 {
			return nil, fmt.Errorf("migration %s: version must be a number from 1 up", name)
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("migration %s: %w", name, err)
		}
		out = append(out, migration{version: version, name: name, sql: string(body)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s: same version %d", out[i-1].name, out[i].name, out[i].version)
		}
	}
	return out, nil
}

// migrate applies, in version order, every migration of fsys that the
// database has not recorded in schema_migrations. Each runs in its own
// transaction together with its record, so a failure leaves the schema at
// the previous version. Because PRAGMA foreign_keys cannot change inside a
// transaction, a migration that rebuilds a referenced table uses
// PRAGMA defer_foreign_keys instead; foreign keys are checked before each
// commit either way.
func migrate(ctx context.Context, db *sql.DB, fsys fs.FS) error {
	ms, err := loadMigrations(fsys)
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT    NOT NULL,
		applied_at INTEGER NOT NULL -- epoch milliseconds
	)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	applied, err := appliedVersions(ctx, db)
	if err != nil {
		return err
	}
	for version, name := range applied {
		if !slices.ContainsFunc(ms, func(m migration) bool { return m.version == version }) {
			// Older code on a newer schema could lose data.
			return fmt.Errorf("database has migration %s, which this binary does not know: it was written by a later Switchboard", name)
		}
	}
	for _, m := range ms {
		if _, ok := applied[m.version]; ok {
			continue
		}
		if err := applyMigration(ctx, db, m); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

// applyMigration runs m unless it is already recorded. It checks again
// inside the write transaction, so two processes opening the same file at
// once cannot both apply it.
func applyMigration(ctx context.Context, db *sql.DB, m migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var applied bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?)`, m.version).Scan(&applied); err != nil {
		return err
	}
	if applied {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return err
	}
	violated := rows.Next()
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	if violated {
		return errors.New("leaves rows that break a foreign key")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at)
		VALUES (?, ?, CAST(unixepoch('subsec') * 1000 AS INTEGER))`, m.version, m.name); err != nil {
		return err
	}
	return tx.Commit()
}

// appliedVersions returns the name of every recorded migration by version.
func appliedVersions(ctx context.Context, db *sql.DB) (map[int]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT version, name FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("read schema version: %w", err)
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var version int
		var name string
		if err := rows.Scan(&version, &name); err != nil {
			return nil, fmt.Errorf("read schema version: %w", err)
		}
		out[version] = name
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read schema version: %w", err)
	}
	return out, nil
}
