package settingsfile

import (
	"errors"
	"path/filepath"
)

// DefaultPath is where Switchboard's own settings file lives when no path
// is given: $XDG_CONFIG_HOME/switchboard/settings.json, or under
// $HOME/.config when XDG_CONFIG_HOME is unset. A relative XDG_CONFIG_HOME
// is ignored, as the XDG spec asks, because it would depend on the working
// directory.
func DefaultPath(getenv func(string) string) (string, error) {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "switchboard", "settings.json"), nil
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "switchboard", "settings.json"), nil
	}
	return "", errors.New("default settings path: neither XDG_CONFIG_HOME nor HOME is set")
}
