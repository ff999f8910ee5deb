-- invocations holds every tools/call made through Switchboard, per scope,
-- with its result, so the dashboard can show history after a restart.
-- Rows outlive the server they were made on: removing a server keeps its
-- history. Times are epoch milliseconds.
CREATE TABLE invocations (
	user            TEXT    NOT NULL,
	workspace       TEXT    NOT NULL,
	id              TEXT    NOT NULL,
	conversation_id TEXT    NOT NULL,
	message_id      TEXT    NOT NULL,
	tool_call_id    TEXT    NOT NULL,
	server          TEXT    NOT NULL,
	tool            TEXT    NOT NULL,
	arguments       TEXT    NOT NULL CHECK (json_valid(arguments)),
	status          TEXT    NOT NULL CHECK (status IN ('pending', 'running', 'success', 'error', 'cancelled')),
	progress        TEXT    CHECK (progress IS NULL OR json_valid(progress)),
	result          BLOB,   -- the CallToolResult JSON, possibly cut short
	truncated       INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
	result_size     INTEGER NOT NULL DEFAULT 0 CHECK (result_size >= 0),
	error           TEXT    NOT NULL DEFAULT '',
	retry_of        TEXT    NOT NULL DEFAULT '',
	started_at      INTEGER NOT NULL,
	ended_at        INTEGER, -- NULL until the call ends
	version         INTEGER NOT NULL CHECK (version >= 0),
	PRIMARY KEY (user, workspace, id)
);

-- An AI client names a call by conversation, message and tool call; the
-- same call must not be recorded twice.
CREATE UNIQUE INDEX invocations_call_key
	ON invocations (user, workspace, conversation_id, message_id, tool_call_id);

-- Newest-first listing per scope, alone or filtered by one field.
CREATE INDEX invocations_newest ON invocations (user, workspace, started_at DESC, id DESC);
CREATE INDEX invocations_by_server ON invocations (user, workspace, server, started_at DESC, id DESC);
CREATE INDEX invocations_by_tool ON invocations (user, workspace, tool, started_at DESC, id DESC);
CREATE INDEX invocations_by_status ON invocations (user, workspace, status, started_at DESC, id DESC);
-- Retention prunes across scopes by end time.
CREATE INDEX invocations_ended ON invocations (ended_at) WHERE ended_at IS NOT NULL;

-- audit_log is the append-only trace of finished calls: a hash of the
-- arguments rather than the arguments, so it holds no secrets. Rows are
-- never changed; they are only deleted by retention.
CREATE TABLE audit_log (
	seq           INTEGER PRIMARY KEY AUTOINCREMENT, -- order of appending, never reused
	user          TEXT    NOT NULL,
	workspace     TEXT    NOT NULL,
	invocation_id TEXT    NOT NULL,
	server        TEXT    NOT NULL,
	tool          TEXT    NOT NULL,
	args_sha256   TEXT    NOT NULL CHECK (length(args_sha256) = 64 AND args_sha256 NOT GLOB '*[^0-9a-f]*'),
	started_at    INTEGER NOT NULL,
	ended_at      INTEGER NOT NULL,
	outcome       TEXT    NOT NULL CHECK (outcome IN ('success', 'error', 'cancelled'))
);
CREATE INDEX audit_log_scope ON audit_log (user, workspace, seq);
CREATE INDEX audit_log_ended ON audit_log (ended_at);

CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
BEGIN
	SELECT RAISE(ABORT, 'audit_log is append-only');
END;
