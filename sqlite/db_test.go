package sqlite

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// openTestDB opens a database in a fresh directory and closes it when the
// test ends.
func openTestDB(t *testing.T, dir string) *DB {
	t.Helper()
	db, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

func TestOpenSetsPragmasOnBothPools(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	tests := []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
		{"synchronous", "1"}, // NORMAL
	}
	for name, pool := range map[string]*sql.DB{"write": db.write, "read": db.read} {
		for _, tt := range tests {
			var got string
			if err := pool.QueryRowContext(t.Context(), "PRAGMA "+tt.pragma).Scan(&got); err != nil {
				t.Fatalf("%s pool: PRAGMA %s: %v", name, tt.pragma, err)
			}
			if got != tt.want {
				t.Errorf("%s pool: PRAGMA %s: got %q, want %q", name, tt.pragma, got, tt.want)
			}
		}
	}
}

func TestReadPoolRefusesWrites(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	_, err := db.read.ExecContext(t.Context(), `DELETE FROM server_records`)
	if err == nil {
		t.Fatal("DELETE on the read pool: got no error, want one")
	}
}

func TestOpenCreatesPrivateDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "switchboard")
	openTestDB(t, dir)
	info, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := info.Mode().Perm(), os.FileMode(0o700); got != want {
		t.Errorf("directory mode: got %v, want %v", got, want)
	}
}

func TestOpenKeepsDatabaseFilesPrivate(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := openTestDB(t, dir)
	if err := db.ServerStore().SaveServerRecord(t.Context(), domain.Scope{User: "u", Workspace: "w"}, domain.ServerRecord{Name: "s"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{fileName, fileName + "-wal", fileName + "-shm"} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := info.Mode().Perm(), os.FileMode(0o600); got != want {
			t.Errorf("%s mode: got %v, want %v", name, got, want)
		}
	}
}

func TestOpenDirectoryWithURICharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a b?c=d&e#f%20g")
	openTestDB(t, dir)
	if _, err := os.Stat(filepath.Join(dir, fileName)); err != nil {
		t.Errorf("database file: got %v, want it inside %q", err, dir)
	}
}

func TestOpenFailsWhenDirectoryIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(t.Context(), file); err == nil {
		db.Close()
		t.Fatal("Open on a regular file: got no error, want one")
	}
}
