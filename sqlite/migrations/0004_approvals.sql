-- approvals holds each user's answer about a project-scoped server, bound
-- to the project root, the server's name and the hash of its config: a
-- changed config asks again. Rows outlive the server's entry on purpose.
CREATE TABLE approvals (
	user         TEXT    NOT NULL,
	project_root TEXT    NOT NULL,
	server       TEXT    NOT NULL,
	config_hash  TEXT    NOT NULL CHECK (length(config_hash) = 64),
	decision     TEXT    NOT NULL CHECK (decision IN ('approved', 'rejected')),
	decided_at   INTEGER NOT NULL, -- epoch milliseconds
	PRIMARY KEY (user, project_root, server)
);
