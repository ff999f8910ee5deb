-- approval_grants hold the approvals a person gave after the AI client had
-- stopped waiting: each lets the client's one retry of exactly that call
-- (same client token, server, tool and arguments) run without asking, until
-- it expires ten minutes later. Kept here so a restart in between does not
-- make the person approve again. Only the SHA-256 of the arguments is kept.
CREATE TABLE approval_grants (
	user       TEXT    NOT NULL,
	workspace  TEXT    NOT NULL,
	token      TEXT    NOT NULL, -- the client token's name; '' for the owner's token
	server     TEXT    NOT NULL,
	tool       TEXT    NOT NULL,
	args_hash  TEXT    NOT NULL CHECK (length(args_hash) = 64),
	expires_at INTEGER NOT NULL, -- epoch milliseconds
	PRIMARY KEY (user, workspace, token, server, tool, args_hash)
) WITHOUT ROWID;

CREATE INDEX approval_grants_expiry ON approval_grants (expires_at);
