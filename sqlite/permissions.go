package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
)

// PermissionChange is a file or directory whose mode Open narrowed: the
// database records what a person runs and with which arguments, so
// nobody but its owner may read it, even when an older version or a
// careless umask created it readable by others.
type PermissionChange struct {
	Path     string
	From, To fs.FileMode
}

// makePrivate removes every group and other permission bit from path and
// reports the change, or nil when there was nothing to remove. A missing
// path is left alone. Windows has no such bits to narrow.
func makePrivate(path string) (*PermissionChange, error) {
	if runtime.GOOS == "windows" {
		return nil, nil
	}
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("check permissions of %s: %w", path, err)
	}
	from := info.Mode().Perm()
	if from&0o077 == 0 {
		return nil, nil
	}
	to := from &^ 0o077
	if err := os.Chmod(path, to); err != nil {
		return nil, fmt.Errorf("make %s private: %w", path, err)
	}
	return &PermissionChange{Path: path, From: from, To: to}, nil
}
