-- gateway_sessions remember the legacy (2025) initialize sessions AI clients
-- opened through the gateway, so that after a restart a client that carries
-- on with its session ID (Claude Code never initializes again) keeps its
-- identity: the clientInfo name and version, the negotiated protocol
-- version, the client's capabilities from initialize, and the name of
-- the client token it used (never the token). The gateway prunes sessions
-- idle for a day and caps how many are kept.
CREATE TABLE gateway_sessions (
	user             TEXT    NOT NULL,
	workspace        TEXT    NOT NULL,
	id               TEXT    NOT NULL,
	endpoint         TEXT    NOT NULL,
	client_name      TEXT    NOT NULL,
	client_version   TEXT    NOT NULL,
	token            TEXT    NOT NULL, -- the client token's name; '' for the owner's token
	protocol_version TEXT    NOT NULL,
	capabilities     TEXT    NOT NULL CHECK (json_valid(capabilities)),
	created_at       INTEGER NOT NULL, -- epoch milliseconds
	last_seen_at     INTEGER NOT NULL, -- epoch milliseconds
	PRIMARY KEY (user, workspace, id)
) WITHOUT ROWID;

CREATE INDEX gateway_sessions_last_seen ON gateway_sessions (last_seen_at);
