package sqlite

import (
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
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

// A data directory and database that an older version or a loose umask
// left readable by others are narrowed at the next start, and reported.
func TestOpenTightensExistingFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no group or other permission bits on Windows")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, fileName)
	for name, mode := range map[string]os.FileMode{fileName: 0o644, fileName + "-wal": 0o644, fileName + "-shm": 0o664} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(dir, name), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}

	db := openTestDB(t, dir)
	if err := db.ServerStore().SaveServerRecord(t.Context(), domain.Scope{User: "u", Workspace: "w"}, domain.ServerRecord{Name: "s"}); err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{dir: 0o700, path: 0o600, path + "-wal": 0o600, path + "-shm": 0o600,
		filepath.Join(dir, ownersDir): 0o700}
	for p, mode := range want {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != mode {
			t.Errorf("%s: got %v, want %v", p, got, mode)
		}
	}
	got := map[string]string{}
	for _, c := range db.PermissionChanges() {
		got[c.Path] = c.From.String() + " -> " + c.To.String()
	}
	wantChanges := map[string]string{
		dir:           "-rwxr-xr-x -> -rwx------",
		path:          "-rw-r--r-- -> -rw-------",
		path + "-wal": "-rw-r--r-- -> -rw-------",
		path + "-shm": "-rw-rw-r-- -> -rw-------",
	}
	if !reflect.DeepEqual(got, wantChanges) {
		t.Errorf("PermissionChanges:\n got %v\nwant %v", got, wantChanges)
	}

	// Already private: nothing to report the next time.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	again := openTestDB(t, dir)
	if c := again.PermissionChanges(); len(c) != 0 {
		t.Errorf("second open: got changes %v, want none", c)
	}
}
