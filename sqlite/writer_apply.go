package sqlite

import (
	"context"
	"errors"
	"fmt"

	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// errRedo asks run to apply the batch again, without the writes that
// failed.
var errRedo = errors.New("apply the batch again")

// apply runs the batch's statements in one transaction, skipping writes
// that errs marks failed, and returns the batch's error. A constraint
// violation marks its write failed: SQLite has undone the statement and
// the others go on; but when it undid only the second half of a final
// state and its audit row, the batch is rolled back and redone without
// it (errRedo), so the pair is stored both or neither.
func (w *writer) apply(batch []*write, newest map[string]int, errs []error) error {
	ctx := context.Background()
	empty := true
	for _, wr := range batch {
		if wr.hasRow() || wr.audit != nil {
			empty = false
			break
		}
	}
	if empty {
		return nil
	}
	if err := w.prepare(ctx); err != nil {
		return err
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin history write: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	upsert, audit := tx.StmtContext(ctx, w.upsert), tx.StmtContext(ctx, w.audit)
	for i, wr := range batch {
		if errs[i] != nil {
			continue
		}
		var inv []any
		if wr.hasRow() && newest[wr.key] == i { // else a newer version of the row follows in this batch
			var err error
			if inv, err = wr.row(); err != nil {
				errs[i] = err
				continue
			}
		}
		if inv == nil && wr.audit == nil {
			continue
		}
		if wr.audit != nil {
			if _, err := audit.ExecContext(ctx, wr.audit...); err != nil {
				if !isConstraint(err) {
					return fmt.Errorf("append audit row: %w", err)
				}
				errs[i] = fmt.Errorf("append audit row: %w", err)
				continue
			}
		}
		if inv != nil {
			if _, err := upsert.ExecContext(ctx, inv...); err != nil {
				if !isConstraint(err) {
					return err
				}
				errs[i] = callKeyError(err)
				if wr.audit != nil {
					return errRedo
				}
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit history write: %w", err)
	}
	if w.n += len(batch); w.n >= checkpointEvery && w.ckpt != nil {
		w.n = 0
		w.ckpt.want()
	}
	return nil
}

// prepare readies the statements on first use; a failure is retried with
// the next batch.
func (w *writer) prepare(ctx context.Context) error {
	if w.upsert == nil {
		st, err := w.db.PrepareContext(ctx, upsertInvocation)
		if err != nil {
			return fmt.Errorf("prepare invocation write: %w", err)
		}
		w.upsert = st
	}
	if w.audit == nil {
		st, err := w.db.PrepareContext(ctx, insertAuditRow)
		if err != nil {
			return fmt.Errorf("prepare audit write: %w", err)
		}
		w.audit = st
	}
	return nil
}

// isConstraint reports whether err is a constraint violation, which SQLite
// undoes by itself without ending the transaction.
func isConstraint(err error) bool {
	var se *sqlitedrv.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}
