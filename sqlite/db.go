// Package sqlite implements Switchboard's domain stores over
// modernc.org/sqlite, a SQLite without cgo, so the binary stays a single
// static file and a user's state is one database they can copy or delete.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// fileName is the database file Open creates inside its directory.
const fileName = "switchboard.db"

// pragmas apply to every connection. WAL lets readers run beside the
// writer; busy_timeout makes a connection wait for another process's lock
// instead of failing at once; foreign_keys is off by default in SQLite and
// later tables rely on it; synchronous=NORMAL is the setting WAL is designed
// for: it cannot corrupt the file, it can only lose the last commit on a
// power cut.
var pragmas = []string{
	"busy_timeout(5000)",
	"journal_mode(WAL)",
	"foreign_keys(1)",
	"synchronous(NORMAL)",
}

// DB is Switchboard's database. It holds two pools over the same file: a
// single writer connection, so that writes queue in Go rather than fail
// with SQLITE_BUSY, and several read-only connections that WAL lets run
// while the writer works.
type DB struct {
	write    *sql.DB
	read     *sql.DB
	writer   *writer  // commits the invocation history in batches over write
	journal  *journal // makes a call's end durable before its commit; nil without flock
	ckpt     *checkpointer
	owner    string     // this process's id in invocations.owner
	lock     *ownerLock // keeps owner visibly alive until Close
	changes  []PermissionChange
	sweepErr error // what the start-up sweep of lock files could not do
}

// Open opens dir/switchboard.db, creating dir and the file if needed, and
// brings the schema up to date. The directory, the database and its -wal
// and -shm files are made private to the user, since they record what the
// user runs: created so, and narrowed when they exist with group or other
// permissions (PermissionChanges lists what was narrowed).
func Open(ctx context.Context, dir string) (*DB, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	path, err := filepath.Abs(filepath.Join(dir, fileName))
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	var changes []PermissionChange
	if changes, err = privatize(changes, filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	// SQLite gives new -wal and -shm files the database file's mode, so
	// narrowing the database first keeps the files it creates later private.
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if changes, err = privatize(changes, p); err != nil {
			return nil, fmt.Errorf("open database: %w", err)
		}
	}
	lock, err := claimOwner(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	var jrnl *journal
	if haveFlock {
		jrnl = newJournal(lock.dir, lock.id)
	}
	db, err := openPools(ctx, path, jrnl)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open database %s: %w", path, err), lock.release())
	}
	db.owner, db.lock, db.changes, db.journal = lock.id, lock, changes, jrnl
	// Both logged by the caller, never fatal: a journal that cannot be
	// replayed stays for the next start.
	db.sweepErr = errors.Join(db.replayJournals(ctx), lock.sweep())
	return db, nil
}

// openPools opens the writer, migrates, then opens the readers and the
// checkpointer, which keeps the WAL short, so that a commit does not have
// to checkpoint it; the writer's own limit, ten times SQLite's default,
// only bounds the WAL when writes the checkpointer does not hear of pile
// up.
func openPools(ctx context.Context, path string, jrnl *journal) (*DB, error) {
	write, err := openPool(ctx, path, 1, "_txlock=immediate&_pragma=wal_autocheckpoint(10000)")
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, write, migrations()); err != nil {
		return nil, errors.Join(err, write.Close())
	}
	read, err := openPool(ctx, path, max(4, runtime.NumCPU()), "_pragma=query_only(1)")
	if err != nil {
		return nil, errors.Join(err, write.Close())
	}
	ckpt, err := openPool(ctx, path, 1, "_pragma=wal_autocheckpoint(0)")
	if err != nil {
		return nil, errors.Join(err, read.Close(), write.Close())
	}
	c := newCheckpointer(ckpt)
	return &DB{write: write, read: read, writer: newWriter(write, c, jrnl), ckpt: c}, nil
}

// privatize narrows path and appends the change, if any, to changes.
func privatize(changes []PermissionChange, path string) ([]PermissionChange, error) {
	c, err := makePrivate(path)
	if c != nil {
		changes = append(changes, *c)
	}
	return changes, err
}

// PermissionChanges lists the files and directories whose group or other
// permissions Open removed, for the caller to warn about: data written
// before then may already have been read by another user.
func (db *DB) PermissionChanges() []PermissionChange {
	return append([]PermissionChange(nil), db.changes...)
}

// SweepError says which lock files of other processes Open could not
// check or remove, and which journals of stopped processes it could not
// replay (they stay for the next start), for the caller to log. It never
// stops Open: a stray file in the data directory is no reason not to
// start.
func (db *DB) SweepError() error { return db.sweepErr }

// Close commits the history writes still queued, closes both pools and
// then gives up this process's owner id. The last connection to close
// checkpoints the WAL back into the main file.
func (db *DB) Close() error {
	err := db.writer.close()
	if db.journal != nil {
		err = errors.Join(err, db.journal.close())
	}
	err = errors.Join(err, db.ckpt.close(), db.read.Close(), db.write.Close())
	if db.lock != nil {
		err = errors.Join(err, db.lock.release())
	}
	return err
}

// openPool opens and pings a pool of at most conns connections; extra is
// appended to the DSN. BEGIN IMMEDIATE on the writer takes the write lock
// up front, so a transaction never has to upgrade a read lock and fail.
func openPool(ctx context.Context, path string, conns int, extra string) (*sql.DB, error) {
	q := make([]string, 0, len(pragmas)+1)
	for _, p := range pragmas {
		q = append(q, "_pragma="+url.QueryEscape(p))
	}
	q = append(q, extra)
	pool, err := sql.Open("sqlite", fileURI(path)+"?"+strings.Join(q, "&"))
	if err != nil {
		return nil, err
	}
	pool.SetMaxOpenConns(conns)
	pool.SetMaxIdleConns(conns)
	if err := pool.PingContext(ctx); err != nil {
		return nil, errors.Join(err, pool.Close())
	}
	return pool, nil
}

// fileURI turns an absolute path into a SQLite file: URI, so that a '?',
// '#' or '%' in a directory name cannot be mistaken for DSN parameters.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return "file:" + (&url.URL{Path: p}).EscapedPath()
}
