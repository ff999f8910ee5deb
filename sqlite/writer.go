package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// errWriterClosed is the outcome of a write handed in after Close.
var errWriterClosed = errors.New("database is closed")

// linger is how long a write nobody waits for may stay queued before it is
// committed. A call shorter than this has its pending, running and final
// states written as one row, once; a crash within it may lose a call that
// had not ended, which then never shows as interrupted.
const linger = 20 * time.Millisecond

// writer commits the invocation history from one goroutine, every write
// that queued while the previous commit ran in one transaction (group
// commit): with many calls at once they share a commit instead of each
// paying for one, and a caller that waits for its write waits for at most
// the commit in progress and its own. A write nobody waits for waits in
// the queue for a write of the same invocation that somebody does (its
// final state supersedes it), for a read that needs it (flush), or for
// linger, whichever comes first; a final state leaves with any batch.
type writer struct {
	db   *sql.DB
	ckpt *checkpointer // wanted every checkpointEvery statements; may be nil
	n    int           // writes since the last checkpoint was wanted; only the loop uses it
	jrnl *journal      // holds the writes appended to it until committed; may be nil
	wake chan struct{} // holds a token when the loop has a batch to take
	done chan struct{} // closed when the loop has ended

	mu     sync.Mutex // guards queue, urgent, due, timer, busy and closed
	queue  []*write
	urgent bool        // someone waits for a queued write
	due    bool        // a queued write has lingered long enough
	timer  *time.Timer // sets due; nil when not armed
	busy   bool        // a batch is being committed
	closed bool

	// Statements prepared once on the writer connection; only the loop
	// uses them.
	upsert, audit *sql.Stmt
}

// write is one change to commit: an invocation row, an audit row, or both
// (stored both or neither); with neither it only waits for what was
// queued before it.
type write struct {
	key     string // scope and id of the invocation, for coalescing
	version uint64
	lazy    bool      // nobody waits for it: it may linger
	barrier bool      // flush's: everything queued before it goes in its batch
	at      time.Time // when it was queued
	inv     []any     // arguments of upsertInvocation, or nil
	// state is an invocation row not encoded yet (QueueInvocation's):
	// the loop encodes it into inv only when no newer version of the row
	// in its batch supersedes it, as the final state of a short call
	// supersedes its pending and running ones.
	state *domain.Invocation
	owner string   // the row's owner, for state
	audit []any    // arguments of insertAuditRow, or nil
	seg   *segment // the journal segment holding the write, or nil
	// done receives the outcome once the batch is committed or failed;
	// it is called from the loop and must not block.
	done func(error)
}

// hasRow reports whether wr writes an invocation row.
func (wr *write) hasRow() bool { return wr.inv != nil || wr.state != nil }

// row returns upsertInvocation's arguments, encoding state the first time.
// Only the loop calls it.
func (wr *write) row() ([]any, error) {
	if wr.inv == nil && wr.state != nil {
		args, err := invocationArgs(*wr.state, wr.owner)
		if err != nil {
			return nil, err
		}
		wr.inv, wr.state = args, nil
	}
	return wr.inv, nil
}

func newWriter(db *sql.DB, ckpt *checkpointer, jrnl *journal) *writer {
	w := &writer{db: db, ckpt: ckpt, jrnl: jrnl, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.loop()
	return w
}

// submit queues wr for the next batch; after close it fails at once.
func (w *writer) submit(wr *write) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		wr.done(errWriterClosed)
		return
	}
	wr.at = time.Now()
	w.queue = append(w.queue, wr)
	if !wr.lazy {
		w.urgent = true
	} else if w.timer == nil {
		w.timer = time.AfterFunc(linger, w.lingered)
	}
	ready := w.urgent
	w.mu.Unlock()
	if ready {
		w.signal()
	}
}

// lingered makes the queued writes due.
func (w *writer) lingered() {
	w.mu.Lock()
	w.due = true
	w.mu.Unlock()
	w.signal()
}

func (w *writer) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// commit queues wr and waits for its outcome. The write is committed even
// when ctx ends first; only the waiting stops.
func (w *writer) commit(ctx context.Context, wr *write) error {
	return w.start(wr)(ctx)
}

// start queues wr, which somebody will wait for, and returns the wait for
// its outcome, so the caller can do something between handing the write
// in and waiting.
func (w *writer) start(wr *write) func(context.Context) error {
	res := make(chan error, 1)
	wr.done = func(err error) { res <- err }
	w.submit(wr)
	return func(ctx context.Context) error {
		select {
		case err := <-res:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// flush waits until every write queued before it is committed, so a read
// that follows sees them: reads of this process never miss a write that
// was handed to the writer without waiting.
func (w *writer) flush(ctx context.Context) error {
	w.mu.Lock()
	idle := len(w.queue) == 0 && !w.busy
	w.mu.Unlock()
	if idle {
		return nil
	}
	err := w.commit(ctx, &write{barrier: true})
	if errors.Is(err, errWriterClosed) {
		return nil // Close committed everything queued
	}
	return err
}

// close commits what is queued, stops the loop and releases the
// statements.
func (w *writer) close() error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.signal()
	<-w.done
	var err error
	for _, st := range []*sql.Stmt{w.upsert, w.audit} {
		if st != nil {
			err = errors.Join(err, st.Close())
		}
	}
	return err
}

func (w *writer) loop() {
	defer close(w.done)
	for {
		w.mu.Lock()
		for !w.closed && !(len(w.queue) > 0 && (w.urgent || w.due)) {
			w.mu.Unlock()
			<-w.wake
			w.mu.Lock()
		}
		batch := w.take()
		w.busy = len(batch) > 0
		closed := w.closed
		w.mu.Unlock()
		if len(batch) > 0 {
			w.run(batch)
			w.mu.Lock()
			w.busy = false
			w.mu.Unlock()
		}
		if closed && len(batch) == 0 {
			return
		}
	}
}

// take removes the next batch from the queue: every write somebody waits
// for, the lazy writes of the same invocations (which they supersede),
// and the lazy writes that have lingered long enough; everything when
// closing or flushing. The final states queued meanwhile (which nothing
// will supersede) and the writes of their invocations go with any batch,
// so that calls one after another share a commit every linger rather
// than each paying for its own once the first has lingered.
// Younger lazy writes of calls still running stay queued, so that the
// final state of a short call replaces its pending and running states
// instead of following them to disk. w.mu must be held.
func (w *writer) take() []*write {
	all := w.closed
	taken := map[string]bool{}
	for _, wr := range w.queue {
		all = all || wr.barrier
		if wr.hasRow() && (!wr.lazy || wr.audit != nil) {
			taken[wr.key] = true
		}
	}
	now := time.Now()
	var batch, kept []*write
	for _, wr := range w.queue {
		if all || !wr.lazy || taken[wr.key] || now.Sub(wr.at) >= linger {
			batch = append(batch, wr)
		} else {
			kept = append(kept, wr)
		}
	}
	w.queue, w.urgent, w.due = kept, false, false
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	if len(kept) > 0 {
		w.timer = time.AfterFunc(linger-now.Sub(kept[0].at), w.lingered)
	}
	return batch
}

// run commits one batch in one transaction and reports each write's
// outcome. An invocation written several times in the batch (pending,
// running and final of a short call) is written once, at its newest
// version; the older writes share that write's outcome. A constraint
// violation fails only its own write; any other error fails the batch.
func (w *writer) run(batch []*write) {
	newest := make(map[string]int, len(batch))
	for i, wr := range batch {
		if !wr.hasRow() {
			continue
		}
		if j, ok := newest[wr.key]; !ok || batch[j].version <= wr.version {
			newest[wr.key] = i
		}
	}
	errs := make([]error, len(batch))
	err := errRedo
	for errors.Is(err, errRedo) {
		err = w.apply(batch, newest, errs)
	}
	for i, wr := range batch {
		e := err
		if e == nil {
			e = errs[i]
			if wr.hasRow() && e == nil {
				e = errs[newest[wr.key]]
			}
		}
		// Once the batch is committed, a journaled write is done with,
		// even when the tables refused it: a replay would be refused too.
		if wr.seg != nil && err == nil {
			w.jrnl.release(wr.seg)
		}
		wr.done(e)
	}
}
