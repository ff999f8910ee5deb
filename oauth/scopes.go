package oauth

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// Bounds on the scopes Switchboard takes from a remote server (a
// challenge, scopes_supported) or builds from them (the union asked for
// when signing in with more access): they end up in authorization URLs,
// the drawer and stored tokens, so a hostile server must not inflate them.
const (
	maxScopes   = 64
	maxScopeLen = 256
)

// capScopes returns the scopes of in that are fit to send and show, at
// most maxScopes of them in their order, and how many were dropped. A
// scope longer than maxScopeLen bytes, or holding a space, a control
// character, a quote, a backslash or invalid UTF-8 (RFC 6749 §3.3 allows
// none of these), is
// dropped; so is a repeat, which is not counted.
func capScopes(in []string) (out []string, dropped int) {
	for _, s := range in {
		switch {
		case s == "" || slices.Contains(out, s):
		case !fitScope(s) || len(out) == maxScopes:
			dropped++
		default:
			out = append(out, s)
		}
	}
	return out, dropped
}

// fitScope reports whether s is a scope token Switchboard keeps.
func fitScope(s string) bool {
	if len(s) > maxScopeLen || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.IsSpace(r) || r == '"' || r == '\\' {
			return false
		}
	}
	return true
}

// union returns a's scopes followed by those of b not in a, capped as
// capScopes does, and how many it dropped.
func union(a, b []string) ([]string, int) {
	return capScopes(append(slices.Clone(a), b...))
}
