package sqlite

import (
	"database/sql"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// openWriter opens the writer pool of a database file without migrating
// it, so each test can run its own migrations.
func openWriter(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := openPool(t.Context(), path, 1, "_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// appliedMigrations lists the recorded versions with their applied_at.
func appliedMigrations(t *testing.T, db *sql.DB) map[int]int64 {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), `SELECT version, applied_at FROM schema_migrations`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int]int64{}
	for rows.Next() {
		var v int
		var at int64
		if err := rows.Scan(&v, &at); err != nil {
			t.Fatal(err)
		}
		out[v] = at
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func tableExists(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	if err := db.QueryRowContext(t.Context(), `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

func TestEmbeddedMigrationsLoad(t *testing.T) {
	ms, err := loadMigrations(migrations())
	if err != nil {
		t.Fatalf("loadMigrations: %v", err)
	}
	if len(ms) == 0 || ms[0].version != 1 {
		t.Fatalf("got %d migrations starting at %v, want the first to be version 1", len(ms), ms)
	}
}

func TestOpenAppliesMigrationsOnceAcrossReopens(t *testing.T) {
	dir := t.TempDir()
	ms, err := loadMigrations(migrations())
	if err != nil {
		t.Fatal(err)
	}

	first, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !tableExists(t, first.write, "server_records") {
		t.Error("server_records: got no table, want one")
	}
	before := appliedMigrations(t, first.write)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := len(before), len(ms); got != want {
		t.Fatalf("recorded migrations: got %d, want %d", got, want)
	}

	second := openTestDB(t, dir)
	after := appliedMigrations(t, second.write)
	for v, at := range before {
		if after[v] != at {
			t.Errorf("migration %d applied_at: got %d after reopen, want %d (applied again?)", v, after[v], at)
		}
	}
	if len(after) != len(before) {
		t.Errorf("recorded migrations after reopen: got %d, want %d", len(after), len(before))
	}
}

func TestMigrateAppliesOnlyNewMigrationsInOrder(t *testing.T) {
	db := openWriter(t, filepath.Join(t.TempDir(), fileName))
	v1 := fstest.MapFS{
		"0001_things.sql": {Data: []byte(`CREATE TABLE things (id INTEGER PRIMARY KEY);`)},
	}
	if err := migrate(t.Context(), db, v1); err != nil {
		t.Fatalf("migrate v1: %v", err)
	}
	// Version 2 needs version 1's table, and holds two statements.
	v2 := fstest.MapFS{
		"0001_things.sql":      v1["0001_things.sql"],
		"0002_thing_names.sql": {Data: []byte("ALTER TABLE things ADD COLUMN name TEXT NOT NULL DEFAULT '';\nINSERT INTO things (name) VALUES ('first');")},
	}
	if err := migrate(t.Context(), db, v2); err != nil {
		t.Fatalf("migrate v2: %v", err)
	}
	if err := migrate(t.Context(), db, v2); err != nil {
		t.Fatalf("migrate v2 again: %v", err)
	}
	var n int
	if err := db.QueryRowContext(t.Context(), `SELECT count(*) FROM things WHERE name = 'first'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("rows inserted by migration 2: got %d, want 1", n)
	}
	got := slices.Sorted(maps.Keys(appliedMigrations(t, db)))
	if want := []int{1, 2}; !slices.Equal(got, want) {
		t.Errorf("recorded versions: got %v, want %v", got, want)
	}
}

func TestMigrateRollsBackAFailedMigration(t *testing.T) {
	db := openWriter(t, filepath.Join(t.TempDir(), fileName))
	fsys := fstest.MapFS{
		"0001_ok.sql":     {Data: []byte(`CREATE TABLE ok (id INTEGER PRIMARY KEY);`)},
		"0002_broken.sql": {Data: []byte("CREATE TABLE half (id INTEGER PRIMARY KEY);\nCREATE TABLE oops (;")},
	}
	err := migrate(t.Context(), db, fsys)
	if err == nil || !strings.Contains(err.Error(), "0002_broken.sql") {
		t.Fatalf("migrate: got %v, want an error naming 0002_broken.sql", err)
	}
	if !tableExists(t, db, "ok") {
		t.Error("table ok: got none, want migration 1 kept")
	}
	if tableExists(t, db, "half") {
		t.Error("table half: got one, want migration 2 rolled back whole")
	}
	if _, recorded := appliedMigrations(t, db)[2]; recorded {
		t.Error("migration 2: got recorded, want not")
	}
}

func TestMigrateRefusesForeignKeyViolations(t *testing.T) {
	db := openWriter(t, filepath.Join(t.TempDir(), fileName))
	fsys := fstest.MapFS{
		"0001_parent.sql": {Data: []byte(`PRAGMA defer_foreign_keys = ON;
CREATE TABLE parent (id INTEGER PRIMARY KEY);
CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent (id));
INSERT INTO child (parent_id) VALUES (7);`)},
	}
	err := migrate(t.Context(), db, fsys)
	if err == nil || !strings.Contains(err.Error(), "break a foreign key") {
		t.Fatalf("migrate: got %v, want the foreign key check to fail it", err)
	}
	if tableExists(t, db, "child") {
		t.Error("table child: got one, want the migration rolled back")
	}
}

func TestMigrateRefusesANewerSchema(t *testing.T) {
	db := openWriter(t, filepath.Join(t.TempDir(), fileName))
	newer := fstest.MapFS{
		"0001_a.sql": {Data: []byte(`CREATE TABLE a (id INTEGER);`)},
		"0002_b.sql": {Data: []byte(`CREATE TABLE b (id INTEGER);`)},
	}
	if err := migrate(t.Context(), db, newer); err != nil {
		t.Fatal(err)
	}
	older := fstest.MapFS{"0001_a.sql": newer["0001_a.sql"]}
	err := migrate(t.Context(), db, older)
	if err == nil || !strings.Contains(err.Error(), "0002_b.sql") {
		t.Errorf("migrate with an older binary: got %v, want an error naming 0002_b.sql", err)
	}
}

func TestLoadMigrationsRejectsBadNames(t *testing.T) {
	sql := &fstest.MapFile{Data: []byte(`SELECT 1;`)}
	tests := []struct {
		name  string
		files []string
	}{
		{"no-version", []string{"servers.sql"}},
		{"version-zero", []string{"0000_start.sql"}},
		{"capitals", []string{"0001_Servers.sql"}},
		{"same-version-twice", []string{"0001_a.sql", "1_b.sql"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range tt.files {
				fsys[f] = sql
			}
			if ms, err := loadMigrations(fsys); err == nil {
				t.Errorf("loadMigrations(%v): got %d migrations, want an error", tt.files, len(ms))
			}
		})
	}
}

func TestLoadMigrationsOrdersByVersionNotName(t *testing.T) {
	sql := &fstest.MapFile{Data: []byte(`SELECT 1;`)}
	fsys := fstest.MapFS{"10_c.sql": sql, "2_b.sql": sql, "0001_a.sql": sql}
	ms, err := loadMigrations(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, m := range ms {
		got = append(got, m.version)
	}
	if want := []int{1, 2, 10}; !slices.Equal(got, want) {
		t.Errorf("versions: got %v, want %v", got, want)
	}
}
