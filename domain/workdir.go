package domain

import "path/filepath"

// WorkDir is the directory a stdio server runs in: its cwd when the entry
// sets one, else BaseDir, so that a server never inherits whatever
// directory Switchboard happened to be started from. A relative cwd is
// resolved from BaseDir too (the project's directory, or the user's home),
// the way a person reading the file beside its project expects. Remote
// servers have none.
func (c ServerConfig) WorkDir() string {
	if c.Transport != TransportStdio {
		return ""
	}
	return resolveCwd(c.Cwd, c.BaseDir)
}

// resolveCwd returns where cwd leads from base: base itself when cwd is
// empty, cwd when it is absolute or there is no base.
func resolveCwd(cwd, base string) string {
	switch {
	case cwd == "":
		return base
	case filepath.IsAbs(cwd) || base == "":
		return cwd
	}
	return filepath.Join(base, cwd)
}

// WithBaseDir returns servers with BaseDir set to dir (an absolute path,
// which the caller resolves), for the servers of one settings file: the
// project's directory for a project's file, the user's home for the
// user's own. The entries as written, and so their fingerprints and
// approvals, are unchanged.
func WithBaseDir(servers []ServerConfig, dir string) []ServerConfig {
	if dir == "" {
		return servers
	}
	out := make([]ServerConfig, len(servers))
	for i, s := range servers {
		s.BaseDir = dir
		out[i] = s
	}
	return out
}
