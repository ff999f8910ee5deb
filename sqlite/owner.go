package sqlite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
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
// this one included. An owner with no file, or the empty owner of rows
// written before owners were recorded, is dead. An owner whose lock file
// cannot be opened or locked counts as alive: ending the calls of a
// process that may be running is worse than leaving them, and the sweep
// reports the file.
func (l *ownerLock) alive(owner string) bool {
	alive, _ := l.probe(owner)
	return alive
}

// probe tells whether owner runs, as alive does, and says why when it
// could not tell or could not clean up. A dead owner's lock file is
// removed on the way, as nobody will ever use that id again.
func (l *ownerLock) probe(owner string) (alive bool, err error) {
	if owner == l.id {
		return true, nil
	}
	if !haveFlock || !validOwner(owner) {
		return false, nil
	}
	path := filepath.Join(l.dir, owner+".lock")
	free, err := lockable(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("check owner %s: %w", owner, err)
	}
	if !free {
		return true, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("remove lock of owner %s: %w", owner, err)
	}
	return false, nil
}

// lockable reports whether nobody holds the lock on the file at path.
func lockable(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false, err
	}
	defer f.Close()
	return tryLock(f)
}

// staleClaim is how much older than this process's own lock file a
// *.new file must be to count as left by a crash: a start renames its
// file within microseconds of creating it, so a minute is far beyond any
// claim in progress, and comparing file times needs no clock.
const staleClaim = time.Minute

// sweep removes the lock files of owners that no longer run, and the
// *.new files of starts that crashed before renaming theirs, so crashes
// do not pile files up in the data directory. It returns what it could
// not check or remove, for the caller to log: a sweep never stops a start.
func (l *ownerLock) sweep() error {
	if !haveFlock {
		return nil
	}
	entries, err := os.ReadDir(l.dir)
	if err != nil {
		return fmt.Errorf("sweep owners: %w", err)
	}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasSuffix(name, ".lock"):
			if _, err := l.probe(strings.TrimSuffix(name, ".lock")); err != nil {
				errs = append(errs, err)
			}
		case strings.HasSuffix(name, ".new") && validOwner(strings.TrimSuffix(name, ".new")):
			if err := l.sweepClaim(filepath.Join(l.dir, name)); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// sweepClaim removes the *.new file at path when it is older than this
// process's lock file by staleClaim and nobody holds its lock.
func (l *ownerLock) sweepClaim(path string) error {
	mine, err := l.file.Stat()
	if err != nil {
		return fmt.Errorf("sweep %s: %w", path, err)
	}
	info, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sweep %s: %w", path, err)
	}
	if !info.Mode().IsRegular() || info.ModTime().After(mine.ModTime().Add(-staleClaim)) {
		return nil
	}
	free, err := lockable(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && !free) {
		return nil
	}
	if err == nil {
		err = os.Remove(path)
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("sweep %s: %w", path, err)
	}
	return nil
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
