-- server_records holds what must survive a restart for each server: whether
-- and why a person or the supervisor disabled it. Every row carries its scope
-- so that several users and workspaces can share one database file.
CREATE TABLE server_records (
	user            TEXT    NOT NULL,
	workspace       TEXT    NOT NULL,
	server          TEXT    NOT NULL,
	disabled_reason TEXT    NOT NULL DEFAULT '' CHECK (disabled_reason IN ('', 'manual', 'auto')),
	updated_at      INTEGER NOT NULL, -- epoch milliseconds
	PRIMARY KEY (user, workspace, server)
);
