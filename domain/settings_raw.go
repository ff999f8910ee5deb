package domain

import (
	"maps"
	"slices"
)

// written keeps an entry's values as the file spells them, copied so that
// nothing the parser holds aliases the config.
func written(r rawServer, rawURL string) RawConfig {
	w := RawConfig{Command: r.Command, Cwd: r.Cwd, URL: rawURL}
	if len(r.Args) > 0 {
		w.Args = slices.Clone(r.Args)
	}
	if len(r.Env) > 0 {
		w.Env = maps.Clone(r.Env)
	}
	if len(r.Headers) > 0 {
		w.Headers = maps.Clone(r.Headers)
	}
	if r.OAuth != nil {
		o := *r.OAuth
		o.Scopes = slices.Clone(o.Scopes)
		w.OAuth = &o
	}
	return w
}

// EnvRefs returns the names of the environment variables s reads through
// ${VAR} references, in order of appearance, each once.
func EnvRefs(s string) []string {
	var names []string
	for _, m := range envRef.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(names, m[1]) {
			names = append(names, m[1])
		}
	}
	return names
}
