package domain

// WorkDir is the directory a stdio server runs in: its cwd when the entry
// sets one, else BaseDir, so that a server never inherits whatever
// directory Switchboard happened to be started from. A relative cwd keeps
// its old meaning (Switchboard's own directory; approvals flag it). Remote
// servers have none.
func (c ServerConfig) WorkDir() string {
	if c.Transport != TransportStdio {
		return ""
	}
	if c.Cwd != "" {
		return c.Cwd
	}
	return c.BaseDir
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
