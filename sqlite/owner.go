package sqlite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ownersDir is the directory, inside the data directory, that holds one
// lock file per Switchboard process using the database.
const ownersDir = "running"

// ownerLock is this process's claim on its owner id: an exclusive lock on
// running/<id>.lock, held until Close. The kernel drops the lock however
// the process ends, kill -9 included, so another process can tell the
// calls of a crashed owner from those of a live one.
type ownerLock struct {
	id   string
	dir  string // the running/ directory
	file *os.File
}

// claimOwner creates and locks this process's lock file. The file is
// locked under a temporary name and then renamed, so a *.lock file is
// never seen unlocked while its process runs.
func claimOwner(dataDir string) (*ownerLock, error) {
	dir := filepath.Join(dataDir, ownersDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("claim owner: %w", err)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("claim owner: %w", err)
	}
	id := hex.EncodeToString(b[:])
	if !haveFlock {
		return &ownerLock{id: id, dir: dir}, nil
	}
	tmp := filepath.Join(dir, id+".new")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("claim owner: %w", err)
	}
	locked, err := tryLock(f)
	if err == nil && !locked {
		err = errors.New("a fresh lock file is locked by someone else")
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, id+".lock"))
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("claim owner: %w", err), f.Close(), os.Remove(tmp))
	}
	return &ownerLock{id: id, dir: dir, file: f}, nil
}

// release drops the lock and removes the file; only the first call does
// anything. Between the two another
// process may find the file unlocked and remove it first, which is fine.
func (l *ownerLock) release() error {
	if l.file == nil {
		return nil
	}
	cerr := l.file.Close()
	l.file = nil // a second Close has nothing left to release
	err := os.Remove(filepath.Join(l.dir, l.id+".lock"))
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	return errors.Join(cerr, err)
}

// alive reports whether owner is a Switchboard process that still runs,
// this one included. A dead owner's lock file is removed on the way, as
// nobody will ever use that id again. An owner with no file, or the empty
// owner of rows written before owners were recorded, is dead.
func (l *ownerLock) alive(owner string) (bool, error) {
	if owner == l.id {
		return true, nil
	}
	if !haveFlock || !validOwner(owner) {
		return false, nil
	}
	path := filepath.Join(l.dir, owner+".lock")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("check owner %s: %w", owner, err)
	}
	defer f.Close()
	locked, err := tryLock(f)
	if err != nil {
		return false, fmt.Errorf("check owner %s: %w", owner, err)
	}
	if !locked {
		return true, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("remove lock of owner %s: %w", owner, err)
	}
	return false, nil
}

// sweep removes the lock files of owners that no longer run, so crashes
// do not pile files up in the data directory.
func (l *ownerLock) sweep() error {
	names, err := filepath.Glob(filepath.Join(l.dir, "*.lock"))
	if err != nil {
		return fmt.Errorf("sweep owners: %w", err)
	}
	var errs []error
	for _, name := range names {
		if _, err := l.alive(strings.TrimSuffix(filepath.Base(name), ".lock")); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// validOwner reports whether s looks like an id claimOwner makes, so that
// text read from the database never becomes a path outside running/.
func validOwner(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
