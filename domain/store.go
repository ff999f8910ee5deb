package domain

import (
	"context"
	"time"
)

// ServerRecord is what must survive a restart of Switchboard for one server:
// whether it is disabled and the settings a person changed in the dashboard.
type ServerRecord struct {
	Name string
	// StateSet reports whether a person (or the auto-disable rule) chose
	// enabled or disabled; when false the settings file's "disabled" rules.
	StateSet       bool
	DisabledReason DisabledReason
	Overrides      SettingsOverride
	UpdatedAt      time.Time
}

// Store persists server records per scope. The sqlite adapter implements it.
type Store interface {
	// ServerRecords returns every record of the scope, keyed by server name.
	ServerRecords(ctx context.Context, scope Scope) (map[string]ServerRecord, error)
	// SaveServerRecord inserts or replaces one record.
	SaveServerRecord(ctx context.Context, scope Scope, rec ServerRecord) error
	// PurgeServer deletes everything stored about one server.
	PurgeServer(ctx context.Context, scope Scope, name string) error
}

// SettingsEditor changes the settings file a server came from.
type SettingsEditor interface {
	// RemoveServer deletes the named entry from the file at path, keeping
	// everything else in it.
	RemoveServer(ctx context.Context, path, name string) error
}

// PreferenceStore keeps a user's dashboard preferences (theme, language).
type PreferenceStore interface {
	Preferences(ctx context.Context, user string) (map[string]string, error)
	SetPreference(ctx context.Context, user, key, value string) error
}
