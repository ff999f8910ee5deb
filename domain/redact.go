package domain

import (
	"regexp"
	"sort"
	"strings"
)

// Redacted replaces every secret that Redact removes.
const Redacted = "[REDACTED]"

// minSecretLen keeps short, common values (such as "1" or "true") in env
// maps from turning every occurrence of a digit into a redaction mark.
const minSecretLen = 4

var (
	bearerRE   = regexp.MustCompile(`(?i)\b(bearer|basic|token)\s+[A-Za-z0-9\-._~+/]+=*`)
	authHdrRE  = regexp.MustCompile(`(?i)\b(authorization|proxy-authorization|x-api-key|api-key|cookie)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',;)]+`)
	userinfoRE = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.\-]*://)[^/@\s]+@`)
	queryRE    = regexp.MustCompile(`(?i)([?&](?:code|[a-z0-9_\-]*(?:token|key|secret|password|passwd|pwd|auth|sig|signature|credential|session)[a-z0-9_\-]*)=)[^&#\s"']+`)
	kvRE       = regexp.MustCompile(`(?i)(\b(?:[a-z0-9_\-]*(?:token|secret|password|passwd|api[_-]?key|apikey)[a-z0-9_\-]*)\s*=\s*)[^\s&"',;)]+`)
	// flagRE finds a flag whose name holds a secret word, or ends in "key"
	// (--key, --api_key, --access-key), and its value after "=" or spaces.
	// The flag must start a word, so "monkey-key value" is left alone.
	// Flag and value may each be quoted, as when an argument list is
	// printed: --key="v", ["--key" "v"] (Go's %q), ["--key", "v"] (JSON).
	flagRE = regexp.MustCompile(`(?i)(^|[\s"'=,(\[])(--?(?:[a-z0-9_\-]*(?:token|secret|password|passwd|apikey|credential)[a-z0-9_\-]*|(?:[a-z0-9_\-]*[_\-])?key)` + flagValueSep + `)[^\s"']+`)
	// knownTokenRE finds tokens that well-known services issue, by their
	// prefix and shape, wherever they appear: a child inherits
	// Switchboard's environment, so it may print a token that no setting
	// of the server declared.
	knownTokenRE = regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_\-]{20,}|xox[abposr]-[A-Za-z0-9\-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}\b|sk-[A-Za-z0-9_\-]{32,}|npm_[A-Za-z0-9]{36}|eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})`)
	// urlPathRE finds the path of a URL, up to its query or fragment.
	urlPathRE = regexp.MustCompile(`(?i)(\b[a-z][a-z0-9+.\-]*://[^/\s?#"'<>]*)(/[^\s?#"'<>]*)`)
)

// flagValueSep is what may stand between a flag and its value: "=" with
// an optional quote on either side, blanks and an optional opening quote,
// or a closing quote, an optional comma and an opening quote. A comma
// counts only between quotes, so "--token, --key" in prose stays.
const flagValueSep = `(?:["']?=["']?|\s+["']?|["']\s*,?\s*["'])`

// Redactor removes secrets from text before it is shown, logged or stored
// for display. It knows the generic shapes of secrets (bearer tokens,
// Authorization headers, URL userinfo, secret-looking query values and
// flags, tokens with a well-known prefix) plus the literal values a
// server's settings declared secret.
type Redactor struct {
	literals []string // longest first, so a secret that contains another is removed whole
}

// NewRedactor returns a Redactor that also removes each of the literal values.
func NewRedactor(literals ...string) Redactor {
	var kept []string
	for _, l := range literals {
		if len(l) >= minSecretLen {
			kept = append(kept, l)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return len(kept[i]) > len(kept[j]) })
	return Redactor{literals: kept}
}

// Redact returns s with every secret it recognizes replaced by Redacted.
func (r Redactor) Redact(s string) string {
	if s == "" {
		return s
	}
	for _, l := range r.literals {
		s = strings.ReplaceAll(s, l, Redacted)
	}
	s = knownTokenRE.ReplaceAllString(s, Redacted)
	s = userinfoRE.ReplaceAllString(s, "${1}"+Redacted+"@")
	s = authHdrRE.ReplaceAllString(s, "${1}${2}"+Redacted)
	s = bearerRE.ReplaceAllString(s, "${1} "+Redacted)
	s = queryRE.ReplaceAllString(s, "${1}"+Redacted)
	s = flagRE.ReplaceAllString(s, "${1}${2}"+Redacted)
	s = kvRE.ReplaceAllString(s, "${1}"+Redacted)
	s = urlPathRE.ReplaceAllStringFunc(s, redactPath)
	return s
}

// RedactAll redacts each line.
func (r Redactor) RedactAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = r.Redact(l)
	}
	return out
}
