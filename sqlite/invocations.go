package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ErrCallKeyTaken is returned when an invocation reuses the conversation,
// message and tool call ids of another invocation in its scope.
var ErrCallKeyTaken = fmt.Errorf("another invocation has the same call key: %w", domain.ErrDuplicateCall)

// InvocationStore keeps invocations and the audit log. History is kept
// when a server is removed: ServerStore.PurgeServer leaves both tables
// alone, and only PruneBefore deletes from them.
type InvocationStore struct {
	db *DB
}

var _ domain.InvocationStore = (*InvocationStore)(nil)

// InvocationStore returns the domain.InvocationStore kept in db.
func (db *DB) InvocationStore() *InvocationStore { return &InvocationStore{db: db} }

// invocationColumns lists, in scanInvocation's order, what a read selects.
const invocationColumns = `user, workspace, id, conversation_id, message_id, tool_call_id, server, tool,
	arguments, status, progress, result, truncated, result_size, error, error_code, retry_of, started_at, ended_at, version, details,
	source, client_name, client_version, client_token`

// progressJSON is how a domain.Progress is stored.
type progressJSON struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// SaveInvocation inserts inv or updates the stored row with the same scope
// and id, unless the stored row has a higher version: updates can arrive
// out of order from concurrent goroutines, and the newest must win. Times
// are kept to the millisecond. The row records this process as its owner,
// so that recovery in another process leaves it alone while this one runs.
// It returns once the row is committed, in the writer's next batch.
func (s *InvocationStore) SaveInvocation(ctx context.Context, inv domain.Invocation) error {
	args, err := invocationArgs(inv, s.db.owner)
	if err != nil {
		return err
	}
	if err := s.db.writer.commit(ctx, &write{key: invocationKey(inv), version: inv.Version, inv: args}); err != nil {
		return fmt.Errorf("save invocation %s in %s: %w", inv.ID, scopeName(inv.Scope), err)
	}
	return nil
}

// QueueInvocation saves inv as SaveInvocation does, without waiting: with
// a later write of the same invocation that somebody waits for (which
// supersedes it), or when a read needs it, or after linger, whichever
// comes first; this store's reads wait for it. failed, when not nil,
// learns why the write could not be committed.
func (s *InvocationStore) QueueInvocation(inv domain.Invocation, failed func(error)) {
	report := func(err error) {
		if err != nil && failed != nil {
			failed(fmt.Errorf("save invocation %s in %s: %w", inv.ID, scopeName(inv.Scope), err))
		}
	}
	// Encoded by the writer, and only if nothing supersedes it first.
	s.db.writer.submit(&write{key: invocationKey(inv), version: inv.Version, state: &inv, owner: s.db.owner,
		lazy: true, done: report})
}

// FinishInvocation saves a call's final state and appends its audit row in
// one transaction, so neither is ever stored without the other, and
// returns once both are committed.
func (s *InvocationStore) FinishInvocation(ctx context.Context, inv domain.Invocation, rec domain.AuditRecord) error {
	args, err := invocationArgs(inv, s.db.owner)
	if err != nil {
		return err
	}
	err = s.db.writer.commit(ctx, &write{key: invocationKey(inv), version: inv.Version, inv: args, audit: auditArgs(rec)})
	if err != nil {
		return fmt.Errorf("finish invocation %s in %s: %w", inv.ID, scopeName(inv.Scope), err)
	}
	return nil
}

var _ domain.FinishQueuer = (*InvocationStore)(nil)

// QueueFinish hands FinishInvocation's write to the writer at once, for
// the next batch, and returns the wait until it is durable: the caller can
// publish the call's end between the two, and every read from then on
// (which flushes the writer) sees the final state. Durable is one append
// to this process's journal, which a later Open replays should the
// process stop before the commit; the commit follows with the next batch
// (within linger), and failed, when not nil, learns if it fails. Without
// a journal the wait is for the commit itself.
func (s *InvocationStore) QueueFinish(inv domain.Invocation, rec domain.AuditRecord, failed func(error)) func(context.Context) error {
	fail := func(err error) error {
		return fmt.Errorf("finish invocation %s in %s: %w", inv.ID, scopeName(inv.Scope), err)
	}
	args, err := invocationArgs(inv, s.db.owner)
	if err != nil {
		return func(context.Context) error { return err }
	}
	wr := &write{key: invocationKey(inv), version: inv.Version, inv: args, audit: auditArgs(rec)}
	if j := s.db.journal; j != nil {
		// int64 fits: invocationArgs refused a larger version.
		if seg, err := j.append(inv.Scope.User, inv.Scope.Workspace, inv.ID, int64(inv.Version), wr.inv, wr.audit); err == nil {
			wr.lazy, wr.seg = true, seg
			wr.done = func(err error) {
				if err != nil && failed != nil {
					failed(fail(err))
				}
			}
			s.db.writer.submit(wr)
			return func(context.Context) error { return nil }
		}
		// A journal that cannot be written: wait for the commit instead.
	}
	wait := s.db.writer.start(wr)
	return func(ctx context.Context) error {
		if err := wait(ctx); err != nil {
			return fail(err)
		}
		return nil
	}
}

// invocationKey names an invocation's row for the writer's coalescing.
func invocationKey(inv domain.Invocation) string {
	return inv.Scope.User + "\x00" + inv.Scope.Workspace + "\x00" + inv.ID
}

// upsertInvocation is SaveInvocation's statement; its arguments come from
// invocationArgs.
const upsertInvocation = `INSERT INTO invocations (` + invocationColumns + `, owner, result_preview)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user, workspace, id) DO UPDATE SET
			conversation_id = excluded.conversation_id,
			message_id = excluded.message_id,
			tool_call_id = excluded.tool_call_id,
			server = excluded.server,
			tool = excluded.tool,
			arguments = excluded.arguments,
			status = excluded.status,
			progress = excluded.progress,
			result = excluded.result,
			result_preview = excluded.result_preview,
			truncated = excluded.truncated,
			result_size = excluded.result_size,
			error = excluded.error,
			error_code = excluded.error_code,
			owner = excluded.owner,
			retry_of = excluded.retry_of,
			started_at = excluded.started_at,
			ended_at = excluded.ended_at,
			version = excluded.version,
			details = excluded.details,
			source = excluded.source,
			client_name = excluded.client_name,
			client_version = excluded.client_version,
			client_token = excluded.client_token
		WHERE excluded.version >= invocations.version`

// invocationArgs returns upsertInvocation's arguments for inv, owned by
// owner. A result larger than a card shows is stored with its preview
// beside it (domain.ResultPreview), made once here so that every page
// listing the call reads the preview instead.
func invocationArgs(inv domain.Invocation, owner string) ([]any, error) {
	if inv.Version > math.MaxInt64 {
		return nil, fmt.Errorf("save invocation %s: version %d out of range", inv.ID, inv.Version)
	}
	args := string(inv.Arguments)
	if args == "" {
		args = "{}"
	}
	var progress, result, preview, endedAt any // NULL unless set
	if p := inv.Progress; p != nil {
		b, err := json.Marshal(progressJSON{Progress: p.Progress, Total: p.Total, Message: p.Message})
		if err != nil {
			return nil, fmt.Errorf("save invocation %s: %w", inv.ID, err)
		}
		progress = string(b)
	}
	if inv.Result != nil {
		result = []byte(inv.Result)
		if p, ok := domain.ResultPreview(inv.Result); ok {
			preview = []byte(p)
		}
	}
	if !inv.EndedAt.IsZero() {
		endedAt = inv.EndedAt.UnixMilli()
	}
	source := inv.Source
	if source == "" {
		source = domain.SourceDashboard
	}
	details, err := encodeDetails(inv)
	if err != nil {
		return nil, fmt.Errorf("save invocation %s: %w", inv.ID, err)
	}
	return []any{inv.Scope.User, inv.Scope.Workspace, inv.ID, inv.Key.ConversationID, inv.Key.MessageID, inv.Key.ToolCallID,
		inv.ServerName, inv.Tool, args, string(inv.Status), progress, result, inv.Truncated, inv.ResultSize,
		inv.Error, inv.ErrorCode, inv.RetryOf, inv.StartedAt.UnixMilli(), endedAt, int64(inv.Version), details,
		source, inv.Client.Name, inv.Client.Version, inv.Client.Token, owner, preview}, nil
}

// callKeyError marks a unique violation of the upsert as a taken call
// key: the primary key is handled by ON CONFLICT, so it can only come from
// the call key.
func callKeyError(err error) error {
	var se *sqlitedrv.Error
	if errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
		return fmt.Errorf("%w: %w", ErrCallKeyTaken, err)
	}
	return err
}

// Invocation returns one invocation of the scope. An id that exists only
// in another scope is not found, the same as one that does not exist.
func (s *InvocationStore) Invocation(ctx context.Context, scope domain.Scope, id string) (domain.Invocation, error) {
	if err := s.db.writer.flush(ctx); err != nil {
		return domain.Invocation{}, fmt.Errorf("load invocation %q in %s: %w", id, scopeName(scope), err)
	}
	row := s.db.read.QueryRowContext(ctx, `SELECT `+invocationColumns+`
		FROM invocations WHERE user = ? AND workspace = ? AND id = ?`, scope.User, scope.Workspace, id)
	inv, err := scanInvocation(row)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Invocation{}, fmt.Errorf("invocation %q in %s: %w", id, scopeName(scope), domain.ErrInvocationNotFound)
	}
	if err != nil {
		return domain.Invocation{}, fmt.Errorf("load invocation %q in %s: %w", id, scopeName(scope), err)
	}
	return inv, nil
}

// scanner is a *sql.Row or *sql.Rows.
type scanner interface {
	Scan(dest ...any) error
}

// scanInvocation reads a row of invocationColumns; extra are destinations
// for columns a query selects after those.
func scanInvocation(r scanner, extra ...any) (domain.Invocation, error) {
	var (
		inv          domain.Invocation
		args, status string
		progress     sql.NullString
		result       []byte
		startedMs    int64
		endedMs      sql.NullInt64
		version      int64
		details      sql.NullString
	)
	err := r.Scan(append([]any{&inv.Scope.User, &inv.Scope.Workspace, &inv.ID, &inv.Key.ConversationID, &inv.Key.MessageID,
		&inv.Key.ToolCallID, &inv.ServerName, &inv.Tool, &args, &status, &progress, &result, &inv.Truncated,
		&inv.ResultSize, &inv.Error, &inv.ErrorCode, &inv.RetryOf, &startedMs, &endedMs, &version, &details,
		&inv.Source, &inv.Client.Name, &inv.Client.Version, &inv.Client.Token}, extra...)...)
	if err != nil {
		return domain.Invocation{}, err
	}
	inv.Arguments = json.RawMessage(args)
	inv.Status = domain.InvocationStatus(status)
	if progress.Valid {
		var p progressJSON
		if err := json.Unmarshal([]byte(progress.String), &p); err != nil {
			return domain.Invocation{}, fmt.Errorf("invocation %s: progress: %w", inv.ID, err)
		}
		inv.Progress = &domain.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message}
	}
	if result != nil {
		inv.Result = json.RawMessage(result)
	}
	inv.StartedAt = time.UnixMilli(startedMs)
	if endedMs.Valid {
		inv.EndedAt = time.UnixMilli(endedMs.Int64)
	}
	inv.Version = uint64(version)
	if details.Valid {
		if err := decodeDetails(details.String, &inv); err != nil {
			return domain.Invocation{}, fmt.Errorf("invocation %s: %w", inv.ID, err)
		}
	}
	return inv, nil
}
