package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// replayJournals commits what the journals of stopped owners hold and
// deletes them, so that a call such an owner answered is in the history
// and the audit log before anyone looks at its calls (recovery would
// otherwise end it as interrupted). An entry already committed is
// skipped: the stored row is then at its version or newer, since the
// final state and its audit row are committed together. Replaying is
// harmless to repeat, and two processes replaying the same journal at
// once commit each entry once, since their transactions take turns.
func (db *DB) replayJournals(ctx context.Context) error {
	if db.lock == nil || !haveFlock {
		return nil
	}
	names, err := os.ReadDir(db.lock.dir)
	if err != nil {
		return fmt.Errorf("replay journals: %w", err)
	}
	var errs []error
	for _, e := range names {
		owner, ok := journalOwner(e.Name())
		if !ok || owner == db.owner || db.lock.alive(owner) {
			continue
		}
		path := filepath.Join(db.lock.dir, e.Name())
		if err := db.replaySegment(ctx, path); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("replay journals: %w", err))
		}
	}
	return errors.Join(errs...)
}

// replaySegment commits the entries of one segment in one transaction. A
// torn last line (a write the process never finished, so never answered
// about) is skipped, and so is an entry the tables refuse, as the writer
// would have refused it.
func (db *DB) replaySegment(ctx context.Context, path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil // another process replayed it first
	}
	if err != nil {
		return fmt.Errorf("replay journal %s: %w", path, err)
	}
	var entries []journalEntry
	for line := range bytes.Lines(data) {
		var e journalEntry
		if !bytes.HasSuffix(line, []byte("\n")) || json.Unmarshal(line, &e) != nil {
			continue
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return nil
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("replay journal %s: %w", path, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	for _, e := range entries {
		if err := replayEntry(ctx, tx, e); err != nil {
			return fmt.Errorf("replay journal %s: %w", path, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("replay journal %s: %w", path, err)
	}
	return nil
}

// replayEntry stores one entry unless its row is stored at its version or
// newer; the pair is stored both or neither.
func replayEntry(ctx context.Context, tx *sql.Tx, e journalEntry) error {
	var stored int64
	err := tx.QueryRowContext(ctx, `SELECT version FROM invocations WHERE user = ? AND workspace = ? AND id = ?`,
		e.User, e.Workspace, e.ID).Scan(&stored)
	switch {
	case err == nil && stored >= e.Version:
		return nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return err
	}
	inv, ierr := decodeArgs(e.Inv)
	audit, aerr := decodeArgs(e.Audit)
	if ierr == nil && len(inv) == strings.Count(upsertInvocation, "?")-1 {
		// Written before result_preview: the row lists its result whole.
		inv = append(inv, nil)
	}
	if ierr != nil || aerr != nil || len(inv) != strings.Count(upsertInvocation, "?") ||
		len(audit) != strings.Count(insertAuditRow, "?") {
		return fmt.Errorf("entry of invocation %s: not one this version writes", e.ID)
	}
	if _, err := tx.ExecContext(ctx, `SAVEPOINT replay_entry`); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, insertAuditRow, audit...)
	if err == nil {
		_, err = tx.ExecContext(ctx, upsertInvocation, inv...)
	}
	if err != nil && !isConstraint(err) {
		return err
	}
	if err != nil {
		if _, err := tx.ExecContext(ctx, `ROLLBACK TO replay_entry`); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `RELEASE replay_entry`)
	return err
}
