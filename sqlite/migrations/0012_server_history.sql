-- server_state_changes and probe_samples are each server's recent past,
-- for the dashboard's uptime strip and latency sparklines: every change of
-- state, phase or error the status hub saw, and the round trip of every
-- keep-alive probe. Errors are already redacted. Both are pruned with the
-- invocations' retention, except that each server's newest change before
-- the cut is kept, so the state a window starts in is known. Times are
-- epoch milliseconds; seq orders rows of the same millisecond.
CREATE TABLE server_state_changes (
	seq       INTEGER PRIMARY KEY,
	user      TEXT    NOT NULL,
	workspace TEXT    NOT NULL,
	server    TEXT    NOT NULL,
	at        INTEGER NOT NULL,
	state     TEXT    NOT NULL,
	phase     TEXT    NOT NULL,
	error     TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX server_state_changes_by_server ON server_state_changes (user, workspace, server, at, seq);
CREATE INDEX server_state_changes_at ON server_state_changes (at);

CREATE TABLE probe_samples (
	seq        INTEGER PRIMARY KEY,
	user       TEXT    NOT NULL,
	workspace  TEXT    NOT NULL,
	server     TEXT    NOT NULL,
	at         INTEGER NOT NULL,
	latency_ns INTEGER NOT NULL CHECK (latency_ns >= 0)
);
CREATE INDEX probe_samples_by_server ON probe_samples (user, workspace, server, at, seq);
CREATE INDEX probe_samples_at ON probe_samples (at);
