package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
)

// MaxExposedNameLength bounds a tool or prompt name on the gateway, so that
// a client's own prefix of up to 16 characters (Claude Code adds
// "mcp__<key>__") still fits the 64 characters model APIs accept.
const MaxExposedNameLength = 48

// ExposedNameSeparator joins a server's name and a tool's or prompt's name
// on the gateway. Calls are routed by the name table, never by splitting
// on it, so names that contain it cannot be misrouted.
const ExposedNameSeparator = "__"

// hashSuffixLength is how many hex digits of SHA-256 tell shortened or
// colliding names apart.
const hashSuffixLength = 6

// SafeName replaces every character outside [A-Za-z0-9_-] with "_": some
// clients reject dots and slashes in tool names even though MCP allows them.
func SafeName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// nameHash is the stable suffix of one (server, original name) pair:
// hex of SHA-256 of server, a NUL and the name, n digits long.
func nameHash(server, name string, n int) string {
	sum := sha256.Sum256([]byte(server + "\x00" + name))
	return hex.EncodeToString(sum[:])[:n]
}

// namedEntry is one tool or prompt waiting for its exposed name.
type namedEntry struct {
	server, original string
	exposed          string
	of               int // which tool or prompt, for the caller
}

// assignExposedNames gives every entry its name on the gateway:
// "<server>__<name>" made safe; when that is too long, or equal to another
// entry's, it is cut and ends in "_" plus a hash of the server and the
// original name. The result depends only on the set of entries, never on
// their order, so names stay put while servers come and go.
func assignExposedNames(entries []namedEntry) {
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].server != entries[j].server {
			return entries[i].server < entries[j].server
		}
		return entries[i].original < entries[j].original
	})
	base := make([]string, len(entries))
	count := make(map[string]int, len(entries))
	var server, prefix string // entries come sorted by server: its prefix is made once
	for i, e := range entries {
		if i == 0 || e.server != server {
			server, prefix = e.server, SafeName(e.server)+ExposedNameSeparator
		}
		base[i] = prefix + SafeName(e.original)
		count[base[i]]++
	}
	taken := make(map[string]bool, len(entries))
	for i, b := range base {
		if count[b] == 1 && len(b) <= MaxExposedNameLength {
			entries[i].exposed = b
			taken[b] = true
		}
	}
	// The hashed names come second so that they step around the plain ones;
	// a hash that still clashes (practically never) takes more digits.
	for i, b := range base {
		if entries[i].exposed != "" {
			continue
		}
		for n := hashSuffixLength; ; n += 2 {
			suffix := "_" + nameHash(entries[i].server, entries[i].original, min(n, 64))
			name := b
			if len(name)+len(suffix) > MaxExposedNameLength {
				name = name[:MaxExposedNameLength-len(suffix)]
			}
			name += suffix
			if !taken[name] || n >= 64 {
				entries[i].exposed = name
				taken[name] = true
				break
			}
		}
	}
}
