-- Invocations learn where each call came from (the dashboard, the API or
-- an AI client through the gateway) and which client made it: its name and
-- version as it introduced itself and the name of the client token it used
-- (never the token). Two statuses join the machine: awaiting_approval (an
-- AI client's call held until a person decides) and denied. SQLite cannot
-- change a CHECK constraint in place, so the table is rebuilt; the audit
-- log is rebuilt likewise to record denied outcomes.
CREATE TABLE invocations_new (
	user            TEXT    NOT NULL,
	workspace       TEXT    NOT NULL,
	id              TEXT    NOT NULL,
	conversation_id TEXT    NOT NULL,
	message_id      TEXT    NOT NULL,
	tool_call_id    TEXT    NOT NULL,
	server          TEXT    NOT NULL,
	tool            TEXT    NOT NULL,
	arguments       TEXT    NOT NULL CHECK (json_valid(arguments)),
	status          TEXT    NOT NULL CHECK (status IN ('pending', 'awaiting_approval', 'running', 'success', 'error', 'cancelled', 'denied')),
	progress        TEXT    CHECK (progress IS NULL OR json_valid(progress)),
	result          BLOB,
	truncated       INTEGER NOT NULL DEFAULT 0 CHECK (truncated IN (0, 1)),
	result_size     INTEGER NOT NULL DEFAULT 0 CHECK (result_size >= 0),
	error           TEXT    NOT NULL DEFAULT '',
	retry_of        TEXT    NOT NULL DEFAULT '',
	started_at      INTEGER NOT NULL,
	ended_at        INTEGER,
	version         INTEGER NOT NULL CHECK (version >= 0),
	error_code      TEXT    NOT NULL DEFAULT '',
	owner           TEXT    NOT NULL DEFAULT '',
	details         TEXT,
	-- Calls made before this migration came from the dashboard or the API;
	-- they are counted as the dashboard's, the default of a call with no
	-- source.
	source          TEXT    NOT NULL DEFAULT 'dashboard' CHECK (source IN ('dashboard', 'api', 'gateway')),
	client_name     TEXT    NOT NULL DEFAULT '',
	client_version  TEXT    NOT NULL DEFAULT '',
	client_token    TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (user, workspace, id)
);
INSERT INTO invocations_new (user, workspace, id, conversation_id, message_id, tool_call_id, server, tool,
	arguments, status, progress, result, truncated, result_size, error, retry_of, started_at, ended_at, version,
	error_code, owner, details)
SELECT user, workspace, id, conversation_id, message_id, tool_call_id, server, tool,
	arguments, status, progress, result, truncated, result_size, error, retry_of, started_at, ended_at, version,
	error_code, owner, details
FROM invocations;
DROP TABLE invocations;
ALTER TABLE invocations_new RENAME TO invocations;

CREATE UNIQUE INDEX invocations_call_key
	ON invocations (user, workspace, conversation_id, message_id, tool_call_id);
CREATE INDEX invocations_newest ON invocations (user, workspace, started_at DESC, id DESC);
CREATE INDEX invocations_by_server ON invocations (user, workspace, server, started_at DESC, id DESC);
CREATE INDEX invocations_by_tool ON invocations (user, workspace, tool, started_at DESC, id DESC);
CREATE INDEX invocations_by_status ON invocations (user, workspace, status, started_at DESC, id DESC);
CREATE INDEX invocations_by_source ON invocations (user, workspace, source, client_name, started_at DESC, id DESC);
CREATE INDEX invocations_ended ON invocations (ended_at) WHERE ended_at IS NOT NULL;
CREATE INDEX invocations_unfinished ON invocations (owner)
	WHERE status NOT IN ('success', 'error', 'cancelled', 'denied');

CREATE TABLE audit_log_new (
	seq           INTEGER PRIMARY KEY AUTOINCREMENT,
	user          TEXT    NOT NULL,
	workspace     TEXT    NOT NULL,
	invocation_id TEXT    NOT NULL,
	server        TEXT    NOT NULL,
	tool          TEXT    NOT NULL,
	args_sha256   TEXT    NOT NULL CHECK (length(args_sha256) = 64 AND args_sha256 NOT GLOB '*[^0-9a-f]*'),
	started_at    INTEGER NOT NULL,
	ended_at      INTEGER NOT NULL,
	outcome       TEXT    NOT NULL CHECK (outcome IN ('success', 'error', 'cancelled', 'denied'))
);
INSERT INTO audit_log_new (seq, user, workspace, invocation_id, server, tool, args_sha256, started_at, ended_at, outcome)
SELECT seq, user, workspace, invocation_id, server, tool, args_sha256, started_at, ended_at, outcome FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_new RENAME TO audit_log;
CREATE INDEX audit_log_scope ON audit_log (user, workspace, seq);
CREATE INDEX audit_log_ended ON audit_log (ended_at);
CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
BEGIN
	SELECT RAISE(ABORT, 'audit_log is append-only');
END;

-- tool_policies holds a person's choice for one tool: allow, ask, deny or
-- hidden. A tool with no row has its default (ask for destructive tools,
-- allow the rest). Rows outlive the server's entry, so re-adding a server
-- keeps its policies.
CREATE TABLE tool_policies (
	user       TEXT    NOT NULL,
	workspace  TEXT    NOT NULL,
	server     TEXT    NOT NULL,
	tool       TEXT    NOT NULL,
	policy     TEXT    NOT NULL CHECK (policy IN ('allow', 'ask', 'deny', 'hidden')),
	updated_at INTEGER NOT NULL, -- epoch milliseconds
	PRIMARY KEY (user, workspace, server, tool)
);

-- server_policies holds "ask for every tool of this server".
CREATE TABLE server_policies (
	user       TEXT    NOT NULL,
	workspace  TEXT    NOT NULL,
	server     TEXT    NOT NULL,
	ask_all    INTEGER NOT NULL CHECK (ask_all IN (0, 1)),
	updated_at INTEGER NOT NULL, -- epoch milliseconds
	PRIMARY KEY (user, workspace, server)
);
