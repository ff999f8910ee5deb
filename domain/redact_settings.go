package domain

import (
	"strings"
	"unicode"
)

// secretWords are the words that, as one segment of an env var or header
// name, say its value is a secret: GITHUB_TOKEN, X-Api-Key, npm_config__auth,
// apiKey. A segment matches with or without a plural "s" (CREDENTIALS).
var secretWords = map[string]bool{
	"token": true, "key": true, "secret": true, "password": true, "passwd": true,
	"pass": true, "pwd": true, "passphrase": true, "auth": true, "authorization": true,
	"authentication": true, "oauth": true, "credential": true, "cred": true, "cookie": true,
	"session": true, "private": true, "signature": true, "sig": true, "api": true, "dsn": true,
}

// secretSuffixes catch names written as one word, such as PGPASSWORD,
// CLIENTSECRET or GHTOKEN. "key" alone is not among them, so KEYBOARD and
// MONKEY stay plain.
var secretSuffixes = []string{"password", "passwd", "secret", "token", "apikey", "accesskey", "secretkey", "privatekey"}

// plainQualifiers, as the last segment of a name, say the value is about a
// secret rather than the secret itself: TOKEN_URL, API_VERSION, AUTH_MODE,
// KEY_FILE, SESSION_DIR. Such values are paths, addresses and settings that
// a person needs to read in stderr; any credential inside them is still
// caught by the generic heuristics (URL userinfo, query values).
var plainQualifiers = map[string]bool{
	"url": true, "uri": true, "endpoint": true, "host": true, "hostname": true, "port": true,
	"path": true, "file": true, "dir": true, "directory": true, "version": true, "timeout": true,
	"region": true, "mode": true, "type": true, "level": true, "base": true,
}

// plainValues are values too common to be anyone's secret; hiding them
// would blank the same word in every line of stderr.
var plainValues = map[string]bool{"true": true, "false": true, "none": true, "null": true}

// credentialPrefixes start the tokens that well-known services issue.
var credentialPrefixes = []string{
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-", "xoxb-", "xoxp-",
	"xoxa-", "xoxs-", "xapp-", "AKIA", "ASIA", "eyJ", "npm_", "AIza",
}

// minCredentialLen is the shortest value without a known prefix that is
// taken for a credential by its shape alone.
const minCredentialLen = 20

// secretSetting reports whether an env var or header value is to be hidden
// wherever it appears: its name says it is secret, or it looks like a
// credential whatever its name. Other values, such as npm_config_cache's
// directory, stay visible so the paths in a server's stderr stay readable.
func secretSetting(name, value string) bool {
	if plainValues[strings.ToLower(value)] {
		return false
	}
	return secretName(name) || looksLikeCredential(value)
}

// secretName reports whether an env var or header name says its value is
// a secret. The name is split into words at punctuation and at camelCase
// humps, so "apiKey" and "API_KEY" match and "KEYBOARD_LAYOUT" does not.
func secretName(name string) bool {
	segs := nameSegments(name)
	if len(segs) == 0 || plainQualifiers[segs[len(segs)-1]] {
		return false
	}
	for _, s := range segs {
		if secretWords[s] || secretWords[strings.TrimSuffix(s, "s")] {
			return true
		}
		for _, suf := range secretSuffixes {
			if strings.HasSuffix(s, suf) || strings.HasSuffix(s, suf+"s") {
				return true
			}
		}
	}
	return false
}

// nameSegments returns the lower-case words of a name: split at every
// character that is not a letter or digit, and before an upper-case letter
// that follows a lower-case one.
func nameSegments(name string) []string {
	var segs []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			segs = append(segs, strings.ToLower(cur.String()))
			cur.Reset()
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur.WriteRune(r)
		prevLower = unicode.IsLower(r)
	}
	flush()
	return segs
}

// looksLikeCredential reports whether a value looks issued rather than
// written: a known token prefix followed by more of the token, or a long
// run of letters and digits, mixed together, with no spaces or path
// separators.
func looksLikeCredential(v string) bool {
	if strings.ContainsAny(v, " \t\r\n/\\") {
		return false
	}
	for _, p := range credentialPrefixes {
		if strings.HasPrefix(v, p) && len(v) >= len(p)+8 {
			return true
		}
	}
	return len(v) >= minCredentialLen && looksLikeToken(v) && mixes(v) >= minCredentialMixes
}

// minCredentialMixes is how often a letter must sit next to a digit in a
// value taken for a credential. Generated strings mix them all along;
// written ones keep words and numbers apart ("--max-old-space-size=4096").
const minCredentialMixes = 3

// mixes counts the places where a letter and a digit touch.
func mixes(v string) int {
	n := 0
	for i := 1; i < len(v); i++ {
		a, b := unicode.IsDigit(rune(v[i-1])), unicode.IsDigit(rune(v[i]))
		if a != b && isAlnum(v[i-1]) && isAlnum(v[i]) {
			n++
		}
	}
	return n
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// oauthSecrets are the values of an "oauth" key that are hidden wherever
// they appear: the client secret.
func oauthSecrets(o *OAuthSettings) []string {
	if o == nil || o.ClientSecret == "" {
		return nil
	}
	return []string{o.ClientSecret}
}
