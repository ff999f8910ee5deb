package domain

import "strings"

// minTokenSegment is the shortest URL path segment that may be a secret.
// Words, names and version numbers in paths are almost always shorter, or
// lack the mix of letters and digits that generated tokens have.
const minTokenSegment = 16

// redactPath replaces the random-looking segments of a URL's path, such as
// the token in https://h/mcp/sk-ak-9f8e7d6c5b4a/sse, which some hosted MCP
// services put in the path instead of a header. m is scheme://host/path.
func redactPath(m string) string {
	i := strings.Index(m, "://")
	if i < 0 {
		return m
	}
	slash := strings.IndexByte(m[i+3:], '/')
	if slash < 0 {
		return m
	}
	head, path := m[:i+3+slash], m[i+3+slash:]
	segs := strings.Split(path, "/")
	for j, seg := range segs {
		// Punctuation of the sentence around the URL is not part of it.
		core := strings.TrimRight(seg, ":;,!)]}")
		if looksLikeToken(core) {
			segs[j] = Redacted + seg[len(core):]
		}
	}
	return head + strings.Join(segs, "/")
}

// looksLikeToken reports whether a path segment looks generated rather
// than written: at least minTokenSegment characters drawn only from the
// letters, digits and punctuation of hex, base64 and API keys, with at
// least three letters and three digits. "server-everything", "dist" and
// "v1.2.3" are kept; "sk-ak-pathtoken-UUUU5555" and a 32-digit hex key are not.
func looksLikeToken(seg string) bool {
	if len(seg) < minTokenSegment {
		return false
	}
	letters, digits := 0, 0
	for _, r := range seg {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letters++
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune("-_.~+=", r):
		default:
			return false
		}
	}
	return letters >= 3 && digits >= 3
}
