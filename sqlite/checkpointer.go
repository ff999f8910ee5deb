package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// checkpointEvery is how many history writes the writer commits between
// two checkpoints. A write adds at most about five pages to the WAL (one
// call per commit; measured with the indexes of migration 0014), fewer
// when a commit holds several calls whose rows and index entries share
// pages, so this keeps the WAL near the thousand pages at which SQLite
// checkpoints by default. Each checkpoint copies every page changed since
// the last, fsync included, so checkpointing twice as often would copy
// the same hot pages twice as often.
const checkpointEvery = 192

// checkpointer copies the WAL back into the database file from its own
// connection and goroutine. SQLite would otherwise do it inside the commit
// that crosses the WAL's limit (wal_autocheckpoint), fsync included, and
// the call whose final state that commit holds would wait for it; a
// passive checkpoint runs beside the writer without blocking it, and once
// it has copied everything the next transaction starts the WAL afresh.
type checkpointer struct {
	db   *sql.DB
	kick chan struct{} // holds a token when a checkpoint is wanted
	stop chan struct{}
	done chan struct{}
	once sync.Once // closes stop
}

func newCheckpointer(db *sql.DB) *checkpointer {
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go c.loop()
	return c
}

// want asks for a checkpoint soon, without waiting for it.
func (c *checkpointer) want() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *checkpointer) loop() {
	defer close(c.done)
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
			// Best effort: a checkpoint that cannot run now (a reader
			// holds an old snapshot) is done by a later one, and the last
			// connection to close checkpoints whatever is left.
			_, _ = c.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
		}
	}
}

// close ends the loop and closes the connection; it may be called again.
func (c *checkpointer) close() error {
	c.once.Do(func() { close(c.stop) })
	<-c.done
	return c.db.Close()
}
