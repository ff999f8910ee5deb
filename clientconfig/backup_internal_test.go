package clientconfig

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Two changes within one millisecond keep two backups: the second never
// replaces the backup of the original file with a copy of the first
// change, and the newest is the one an undo restores.
func TestBackupsWithinOneMillisecondAreKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte("original"), 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	first, err := writeClientConfig(path, []byte("original"), []byte("first"), now)
	if err != nil {
		t.Fatal(err)
	}
	second, err := writeClientConfig(path, []byte("first"), []byte("second"), now)
	if err != nil {
		t.Fatal(err)
	}
	if first == second {
		t.Fatalf("both changes backed up to %s", first)
	}
	if b, _ := os.ReadFile(first); string(b) != "original" {
		t.Errorf("first backup holds %q, want the original file", b)
	}
	if b, _ := os.ReadFile(second); string(b) != "first" {
		t.Errorf("second backup holds %q, want the first change", b)
	}
	if got := newestBackup(path); got != second {
		t.Errorf("newest backup %s, want %s", got, second)
	}
}
