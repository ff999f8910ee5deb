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
	write *sql.DB
	read  *sql.DB
}

// Open opens dir/switchboard.db, creating dir (private to the user, since
// the file records what they run) and the file if needed, and brings the
// schema up to date.
func Open(ctx context.Context, dir string) (*DB, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	path, err := filepath.Abs(filepath.Join(dir, fileName))
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	// SQLite gives its -wal and -shm files the database file's mode, so
	// creating the file private keeps all three private, even in a
	// directory that already existed with looser permissions.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	write, err := openPool(ctx, path, 1, "_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	if err := migrate(ctx, write, migrations()); err != nil {
		return nil, errors.Join(fmt.Errorf("open database %s: %w", path, err), write.Close())
	}
	read, err := openPool(ctx, path, max(4, runtime.NumCPU()), "_pragma=query_only(1)")
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open database %s: %w", path, err), write.Close())
	}
	return &DB{write: write, read: read}, nil
}

// Close closes both pools. The last connection to close checkpoints the
// WAL back into the main file.
func (db *DB) Close() error {
	return errors.Join(db.read.Close(), db.write.Close())
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
