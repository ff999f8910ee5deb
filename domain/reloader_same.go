package domain

import (
	"cmp"
	"reflect"
	"slices"
)

// sameLoad reports whether a and b are the same settings, whatever order
// the files list servers in: a save that only reformats or reorders keys
// parses to the same load and so is not a reload.
func sameLoad(a, b LoadedConfig) bool {
	return a.Demo == b.Demo &&
		reflect.DeepEqual(byName(a.Servers), byName(b.Servers)) &&
		reflect.DeepEqual(sortedSources(a.Sources), sortedSources(b.Sources)) &&
		reflect.DeepEqual(a.Problems, b.Problems)
}

// firstProblem is the bad entry the state reports, or nil.
func firstProblem(l LoadedConfig) *SettingsError {
	if len(l.Problems) == 0 {
		return nil
	}
	return l.Problems[0]
}

func byName(cfgs []ServerConfig) []ServerConfig {
	out := slices.Clone(cfgs)
	slices.SortFunc(out, func(x, y ServerConfig) int { return cmp.Compare(x.Name, y.Name) })
	return out
}

func sortedSources(srcs []ConfigSource) []ConfigSource {
	out := make([]ConfigSource, len(srcs))
	for i, s := range srcs {
		s.Servers = slices.Sorted(slices.Values(s.Servers))
		out[i] = s
	}
	return out
}
