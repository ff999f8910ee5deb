package mcpserver_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/switchboard-mcp/switchboard/mcpserver"
)

func TestStateKeyIsMadeOnceAndKeptPrivate(t *testing.T) {
	dir := t.TempDir()
	first, err := mcpserver.LoadStateKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != mcpserver.StateKeySize {
		t.Fatalf("key: got %d bytes, want %d", len(first), mcpserver.StateKeySize)
	}
	fi, err := os.Stat(filepath.Join(dir, mcpserver.StateKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("mode: got %o, want 600", got)
	}
	again, err := mcpserver.LoadStateKey(dir)
	if err != nil || !bytes.Equal(again, first) {
		t.Errorf("second start: got %x, %v; want the first key", again, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("data directory holds %d files, want only the key", len(entries))
	}

	if err := os.WriteFile(filepath.Join(dir, mcpserver.StateKeyFile), []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpserver.LoadStateKey(dir); err == nil {
		t.Error("a key file of the wrong size was taken")
	}
}
