package domain

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// ConfigPath resolves the client's user-wide config file on goos, filling
// ~, %APPDATA% and %USERPROFILE% from getenv. It reads no disk.
func (c ConnectClient) ConfigPath(goos string, getenv func(string) string) (string, error) {
	want := map[string]string{"darwin": "macos", "windows": "windows"}[goos]
	if want == "" {
		want = "linux"
	}
	i := slices.IndexFunc(c.Files, func(f ClientConfigFile) bool { return f.OS == want })
	if i < 0 {
		return "", fmt.Errorf("%s keeps no config file on %s: %w", c.Name, goos, ErrNoClientConfig)
	}
	p := c.Files[i].Path
	for _, v := range []string{"APPDATA", "USERPROFILE"} {
		if strings.Contains(p, "%"+v+"%") {
			val := getenv(v)
			if val == "" {
				return "", fmt.Errorf("%%%s%% is not set: %w", v, ErrNoClientConfig)
			}
			p = strings.ReplaceAll(p, "%"+v+"%", val)
		}
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		home := getenv("HOME")
		if home == "" {
			return "", fmt.Errorf("HOME is not set: %w", ErrNoClientConfig)
		}
		p = filepath.Join(home, rest)
	}
	return filepath.FromSlash(p), nil
}

// ClientServer is one server an AI client's config file lists beside
// Switchboard's entry: a candidate to move into Switchboard's settings.
// Every field is text from that file, untrusted.
type ClientServer struct {
	Name      string
	Transport string // "stdio", "http" or "sse", as far as the entry tells
	Target    string // the command line or the URL
	// Taken says Switchboard's settings already define a server by this
	// name, so an import would keep Switchboard's and drop the client's.
	Taken bool
}

// ClientConfigState is what a client's config file holds now.
type ClientConfigState struct {
	Path     string
	Exists   bool
	HasEntry bool // Switchboard's own entry is there
	Servers  []ClientServer
	// CanImport says there is a settings file to import into (not in
	// the demo).
	CanImport bool
	// Backup is the newest backup an undo would restore; empty when none.
	Backup string
}

// ClientConfigChange is what a person chose to do to a client's config
// file: set Switchboard's entry (nil leaves it), and move the named
// servers into Switchboard's settings.
type ClientConfigChange struct {
	Entry  []byte
	Import []string
}

// ClientConfigResult says what a change did.
type ClientConfigResult struct {
	Backup string   // the previous file's copy; empty when the file was created
	Added  []string // servers now in Switchboard's settings
	Kept   []string // imported names Switchboard's settings already had: theirs stays
}

// ClientUndoResult says what an undo did.
type ClientUndoResult struct {
	Backup  string   // the backup that was put back
	Removed []string // servers the import had added, taken out of the settings again
	// Kept are servers the import added that were edited (or removed)
	// since, so the undo left them alone.
	Kept []string
}
