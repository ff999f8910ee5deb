package oauth

import (
	"net/http"
	"strings"
)

// Challenge is one WWW-Authenticate challenge from a resource server, kept so
// discovery can follow its resource_metadata and scope hints.
type Challenge struct {
	// Status is the HTTP status of the response that carried it (401, 403);
	// zero when parsed from headers alone.
	Status int
	// Scheme is the auth scheme as sent ("Bearer"); compare case-insensitively.
	Scheme string
	// Error is the error parameter, e.g. "invalid_token" or "insufficient_scope".
	Error string
	// Description is the error_description parameter: the server's words,
	// untrusted, for showing (escaped) to a person.
	Description string
	// ResourceMetadata is the RFC 9728 resource_metadata URL, when given.
	ResourceMetadata string
	// Scopes are the space-separated scope parameter, split and capped
	// (see capScopes).
	Scopes []string
	// DroppedScopes counts the scopes left out of Scopes, for the log.
	DroppedScopes int
}

// InsufficientScope reports whether the server refused the token as too
// narrow, which asks for a new sign-in with more scopes rather than being a
// plain refusal.
func (c Challenge) InsufficientScope() bool { return c.Error == "insufficient_scope" }

// ParseChallenges reads every WWW-Authenticate header in h (RFC 9110 §11.6.1
// syntax: several challenges per header, quoted strings, token68). A
// malformed remainder ends the parse of that header without losing the
// challenges read before it, since servers get this header wrong often.
func ParseChallenges(h http.Header) []Challenge {
	var out []Challenge
	for _, v := range h.Values("WWW-Authenticate") {
		out = append(out, parseHeader(v)...)
	}
	return out
}

// BearerChallenge returns the first Bearer challenge of resp, with Status set
// from resp; false when the response carries none.
func BearerChallenge(resp *http.Response) (Challenge, bool) {
	if resp == nil {
		return Challenge{}, false
	}
	for _, c := range ParseChallenges(resp.Header) {
		if strings.EqualFold(c.Scheme, "Bearer") {
			c.Status = resp.StatusCode
			return c, true
		}
	}
	return Challenge{}, false
}

// challengeScanner walks one header value; pos only moves forward.
type challengeScanner struct {
	s   string
	pos int
}

func parseHeader(v string) []Challenge {
	sc := &challengeScanner{s: v}
	var out []Challenge
	for {
		sc.skipSeparators()
		scheme := sc.token()
		if scheme == "" {
			return out // end, or junk we cannot read
		}
		c := Challenge{Scheme: scheme}
		params := sc.params()
		for k, val := range params {
			switch k {
			case "error":
				c.Error = val
			case "error_description":
				c.Description = val
			case "resource_metadata":
				c.ResourceMetadata = val
			case "scope":
				c.Scopes, c.DroppedScopes = capScopes(strings.Fields(val))
			}
		}
		out = append(out, c)
	}
}

// params reads what follows a scheme: a token68 (ignored: Bearer
// challenges carry parameters) or a comma-separated list of auth-params,
// stopping before the next challenge's scheme.
func (sc *challengeScanner) params() map[string]string {
	out := map[string]string{}
	if !sc.skipSpaces() {
		return out // scheme alone, then a comma or the end
	}
	start := sc.pos
	if sc.isToken68() {
		return out
	}
	sc.pos = start
	for {
		save := sc.pos
		name := sc.token()
		sc.skipSpaces()
		if name == "" || !sc.consume('=') {
			sc.pos = save // the next challenge's scheme, or junk
			return out
		}
		sc.skipSpaces()
		var val string
		if sc.peek() == '"' {
			val = sc.quoted()
		} else {
			val = sc.token()
		}
		out[strings.ToLower(name)] = val
		sc.skipSpaces()
		if !sc.consume(',') {
			if sc.pos < len(sc.s) {
				sc.pos = len(sc.s) // junk after a parameter: give up on this header
			}
			return out
		}
		sc.skipSeparators()
	}
}

// isToken68 consumes a token68 when the text at pos is one (token68 chars,
// then '='s, then a comma or the end) and reports whether it did.
func (sc *challengeScanner) isToken68() bool {
	i := sc.pos
	for i < len(sc.s) && isToken68Char(sc.s[i]) {
		i++
	}
	if i == sc.pos {
		return false
	}
	for i < len(sc.s) && sc.s[i] == '=' {
		i++
	}
	j := i
	for j < len(sc.s) && (sc.s[j] == ' ' || sc.s[j] == '\t') {
		j++
	}
	if j < len(sc.s) && sc.s[j] != ',' {
		return false
	}
	sc.pos = j
	return true
}

func (sc *challengeScanner) peek() byte {
	if sc.pos < len(sc.s) {
		return sc.s[sc.pos]
	}
	return 0
}

func (sc *challengeScanner) consume(b byte) bool {
	if sc.peek() == b {
		sc.pos++
		return true
	}
	return false
}

// skipSpaces skips spaces and tabs and reports whether any were skipped
// and text remains that is not a comma.
func (sc *challengeScanner) skipSpaces() bool {
	start := sc.pos
	for sc.pos < len(sc.s) && (sc.s[sc.pos] == ' ' || sc.s[sc.pos] == '\t') {
		sc.pos++
	}
	return sc.pos > start && sc.pos < len(sc.s) && sc.s[sc.pos] != ','
}

func (sc *challengeScanner) skipSeparators() {
	for sc.pos < len(sc.s) && (sc.s[sc.pos] == ' ' || sc.s[sc.pos] == '\t' || sc.s[sc.pos] == ',') {
		sc.pos++
	}
}

func (sc *challengeScanner) token() string {
	start := sc.pos
	for sc.pos < len(sc.s) && isTokenChar(sc.s[sc.pos]) {
		sc.pos++
	}
	return sc.s[start:sc.pos]
}

// quoted reads a quoted-string at pos (which is '"'), undoing
// backslash escapes; an unterminated one runs to the end.
func (sc *challengeScanner) quoted() string {
	sc.pos++
	var b strings.Builder
	for sc.pos < len(sc.s) {
		ch := sc.s[sc.pos]
		sc.pos++
		switch {
		case ch == '\\' && sc.pos < len(sc.s):
			b.WriteByte(sc.s[sc.pos])
			sc.pos++
		case ch == '"':
			return b.String()
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

func isTokenChar(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", b) >= 0
}

func isToken68Char(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	}
	return strings.IndexByte("-._~+/", b) >= 0
}
