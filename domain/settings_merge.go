package domain

import "context"

// ScopeUser marks the user's own settings file, whose servers run without
// asking.
const ScopeUser = "user"

// ProjectSettings is one of the project's settings files as an adapter
// read it. Unreadable says why the file could not be read or parsed;
// such a file contributes no servers, only that problem. A file that does
// not exist is left out of the input altogether. A project file has no
// gate of its own: only the user decides what may connect.
type ProjectSettings struct {
	Path       string
	Servers    []ServerConfig
	Problems   []*SettingsError
	Unreadable *SettingsError
}

// MergeInput is everything a merge of the settings needs, already read,
// so the merge itself touches no disk.
type MergeInput struct {
	// User is the user's settings file, its gate included.
	User     Settings
	Projects []ProjectSettings
	// HomeDir is where the user's stdio servers without a cwd run, and
	// ProjectDir where the project's do: never where Switchboard started.
	HomeDir    string
	ProjectDir string
	// UpperBound is the start-up allow-list; only its UpperBound fields
	// are used. Edits of the user's file may narrow it, never widen it.
	UpperBound Gate
	Approvals  ApprovalStore
	// Resolve follows symbolic links for the approval request's risk
	// notes; nil judges paths as written.
	Resolve PathResolver
}

// MergeSettings combines the user's settings with the project's. On a name
// clash the user's entry wins, so a project cannot replace a server the
// user trusts. The user file's gate, capped by the start-up upper bound,
// applies to every server, and project servers without an approval of
// their current config are blocked as pending (or rejected).
func MergeSettings(ctx context.Context, in MergeInput) (LoadedConfig, error) {
	loaded := LoadedConfig{Problems: append([]*SettingsError(nil), in.User.Problems...)}
	taken := map[string]bool{}
	src := ConfigSource{Path: in.User.Path, Scope: ScopeUser}
	for _, c := range in.User.Servers {
		src.Servers = append(src.Servers, c.Name)
		taken[c.Name] = true
	}
	loaded.Servers = WithBaseDir(in.User.Servers, in.HomeDir)
	loaded.Sources = append(loaded.Sources, src)

	fromProject := map[string]bool{}
	for _, p := range in.Projects {
		if p.Unreadable != nil {
			// An unreadable project file starts none of its servers and
			// is reported; the user's own servers run regardless.
			loaded.Problems = append(loaded.Problems, p.Unreadable)
			continue
		}
		psrc := ConfigSource{Path: p.Path, Scope: ScopeProject}
		for _, c := range p.Servers {
			if taken[c.Name] {
				continue // the user's own entry wins
			}
			taken[c.Name] = true
			fromProject[c.Name] = true
			psrc.Servers = append(psrc.Servers, c.Name)
			loaded.Servers = append(loaded.Servers, WithBaseDir([]ServerConfig{c}, in.ProjectDir)...)
		}
		loaded.Problems = append(loaded.Problems, p.Problems...)
		loaded.Sources = append(loaded.Sources, psrc)
	}

	gate := in.User.Gate
	gate.UpperBound, gate.UpperBoundSet = in.UpperBound.UpperBound, in.UpperBound.UpperBoundSet
	loaded.Servers = gate.Apply(loaded.Servers)
	servers, err := GateApprovals(ctx, in.Approvals, LocalUser, in.ProjectDir, in.Resolve, loaded.Servers, fromProject)
	if err != nil {
		return LoadedConfig{}, err
	}
	loaded.Servers = servers
	return loaded, nil
}
