package sqlite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// An entry in running/ that cannot be opened as a lock file (a directory
// of that name, a file without permission) never stops Switchboard from
// starting: the sweep reports it for the log, and the owner it names counts
// as alive, so its calls are not ended on a guess.
func TestUnopenableLockFiles(t *testing.T) {
	if !haveFlock {
		t.Skip("no lock files on this platform")
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
	}{
		{"directory", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"no-permission", func(t *testing.T, path string) {
			if os.Geteuid() == 0 {
				t.Skip("root opens any file")
			}
			if err := os.WriteFile(path, nil, 0o000); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			leftBehind(t, dir, unfinishedCall(scopeA, "theirs", 0, domain.InvocationRunning))
			owner := strings.Repeat("ef", 16)
			path := filepath.Join(dir, ownersDir, owner+".lock")
			tt.setup(t, path)
			setup := openTestDB(t, dir)
			if _, err := setup.write.ExecContext(t.Context(), `UPDATE invocations SET owner = ? WHERE id = 'theirs'`, owner); err != nil {
				t.Fatal(err)
			}

			db, err := Open(t.Context(), dir)
			if err != nil {
				t.Fatalf("Open failed on an unopenable lock file: %v", err)
			}
			t.Cleanup(func() { _ = db.Close() })
			if err := db.SweepError(); err == nil || !strings.Contains(err.Error(), owner) {
				t.Errorf("SweepError: got %v, want one naming %s", err, owner)
			}
			if ended := recoverAll(t, db.InvocationStore(), t0.Add(time.Second)); len(ended) != 0 {
				t.Errorf("ended %v, want nothing: an owner that cannot be checked counts as alive", ids(ended))
			}
			if _, err := os.Lstat(path); err != nil {
				t.Errorf("the entry was removed: %v", err)
			}
		})
	}
}

// A process killed between creating its lock file and renaming it leaves
// a *.new file behind; the sweep removes it once it is clearly old, and
// leaves a fresh one (a start in progress) and a locked one alone.
func TestSweepRemovesStaleClaims(t *testing.T) {
	if !haveFlock {
		t.Skip("no lock files on this platform")
	}
	dir := t.TempDir()
	leftBehind(t, dir)
	running := filepath.Join(dir, ownersDir)
	claim := func(id string, age time.Duration) string {
		path := filepath.Join(running, strings.Repeat(id, 16)+".new")
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
		return path
	}
	stale, fresh, held := claim("a1", time.Hour), claim("b2", 0), claim("c3", time.Hour)
	other := filepath.Join(running, "notes.new") // not a claim's name
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(held, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if locked, err := tryLock(f); err != nil || !locked {
		t.Fatalf("lock %s: %v %v", held, locked, err)
	}

	db := openTestDB(t, dir)
	if err := db.SweepError(); err != nil {
		t.Errorf("SweepError: %v", err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale claim: got %v, want it removed", err)
	}
	for _, keep := range []string{fresh, held, other} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s: got %v, want it kept", filepath.Base(keep), err)
		}
	}
}
