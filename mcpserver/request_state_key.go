package mcpserver

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// StateKeyFile is the file in the data directory that holds the key
// sealing the requestState of 2026-07-28 clients.
const StateKeyFile = "request-state.key"

// LoadStateKey reads the key in dir's StateKeyFile, creating it (32
// random bytes, mode 0600) on first start. A file of the wrong size is an
// error rather than replaced: it is not ours to overwrite.
func LoadStateKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, StateKeyFile)
	key, err := os.ReadFile(path)
	switch {
	case err == nil:
		if len(key) != StateKeySize {
			return nil, fmt.Errorf("state key %s: %d bytes, want %d", path, len(key), StateKeySize)
		}
		return key, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("state key: %w", err)
	}
	key = make([]byte, StateKeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("state key: %w", err)
	}
	// Written aside and linked into place: a start that races this one
	// either links first or reads the whole key the other linked.
	tmp, err := os.CreateTemp(dir, StateKeyFile+".*")
	if err != nil {
		return nil, fmt.Errorf("state key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(key)
	if err := errors.Join(tmp.Chmod(0o600), werr, tmp.Sync(), tmp.Close()); err != nil {
		return nil, fmt.Errorf("state key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return LoadStateKey(dir)
	} else if err != nil {
		return nil, fmt.Errorf("state key: %w", err)
	}
	return key, nil
}
