-- client_tokens are the named credentials AI clients use to reach the MCP
-- endpoints. Only the SHA-256 of each secret is kept: the secret is shown
-- once, when it is created, and a copy of this file opens nothing.
CREATE TABLE client_tokens (
	name         TEXT    PRIMARY KEY,
	hash         BLOB    NOT NULL UNIQUE CHECK (length(hash) = 32),
	created_at   INTEGER NOT NULL, -- epoch milliseconds
	last_used_at INTEGER           -- epoch milliseconds; NULL: never used
);
