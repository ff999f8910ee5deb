package domain

import (
	"time"
)

// SettingsOverride is what a person changed for one server from the
// dashboard. A nil field follows the settings file. Overrides are stored
// per (user, workspace, server) and applied without reconnecting.
type SettingsOverride struct {
	AutoReconnect *bool
	KeepAlive     *time.Duration
}

// MaxKeepAlive bounds the probe interval: beyond an hour a hung server
// would go unnoticed for longer than anyone waits.
const MaxKeepAlive = time.Hour

// Validate reports whether the override can be applied.
func (o SettingsOverride) Validate() error {
	if o.KeepAlive != nil {
		if err := KeepAliveRange.Check(*o.KeepAlive); err != nil {
			return err
		}
	}
	return nil
}

// merge returns o with every field that next sets replaced.
func (o SettingsOverride) merge(next SettingsOverride) SettingsOverride {
	if next.AutoReconnect != nil {
		o.AutoReconnect = next.AutoReconnect
	}
	if next.KeepAlive != nil {
		o.KeepAlive = next.KeepAlive
	}
	return o
}

// apply returns cfg with the overridden fields set.
func (o SettingsOverride) apply(cfg ServerConfig) ServerConfig {
	if o.AutoReconnect != nil {
		cfg.AutoReconnect = *o.AutoReconnect
	}
	if o.KeepAlive != nil {
		cfg.KeepAlive = *o.KeepAlive
	}
	return cfg
}
