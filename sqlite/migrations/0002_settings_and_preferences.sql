-- A person's per-server settings from the dashboard, and whether the
-- enabled/disabled state was chosen (by a person or the auto-disable rule)
-- rather than left to the settings file. Rows written before this
-- migration were always such choices.
ALTER TABLE server_records ADD COLUMN state_set INTEGER NOT NULL DEFAULT 1 CHECK (state_set IN (0, 1));
ALTER TABLE server_records ADD COLUMN auto_reconnect INTEGER CHECK (auto_reconnect IN (0, 1)); -- NULL: follow the file
ALTER TABLE server_records ADD COLUMN keep_alive_ms INTEGER CHECK (keep_alive_ms >= 0);       -- NULL: follow the file

-- user_preferences holds dashboard choices per user: theme, language.
CREATE TABLE user_preferences (
	user       TEXT    NOT NULL,
	key        TEXT    NOT NULL,
	value      TEXT    NOT NULL,
	updated_at INTEGER NOT NULL, -- epoch milliseconds
	PRIMARY KEY (user, key)
);
