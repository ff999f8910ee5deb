package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
)

// Fingerprint identifies everything about a server that affects its
// connection: transport, command, arguments in order, environment,
// working directory, URL and headers, both as written (${VAR} unexpanded)
// and as resolved. An approval is bound to it, so neither an edit of the
// file nor a changed environment variable runs something nobody saw. Two
// configs with the same fingerprint would connect the same way, so hot
// reload leaves such a server untouched. Map key order does not matter
// (json sorts map keys); argument order does. Switchboard's own keys
// (keep-alive, timeouts, auto-reconnect, disabled) are left out: they
// apply without reconnecting. The "oauth" key counts as resolved.
func (c ServerConfig) Fingerprint() string {
	b, _ := json.Marshal(struct {
		Transport Transport         `json:"t"`
		Command   string            `json:"c"`
		Args      []string          `json:"a"`
		Env       map[string]string `json:"e"`
		Cwd       string            `json:"d"`
		URL       string            `json:"u"`
		Headers   map[string]string `json:"h"`
		Raw       RawConfig         `json:"r"`
		// OAuth is left out when absent, so that configs without it keep
		// the fingerprints (and approvals) they had before the key existed.
		OAuth *OAuthSettings `json:"o,omitempty"`
	}{c.Transport, c.Command, c.Args, c.Env, c.Cwd, c.URL, c.Headers, c.Raw, c.OAuth})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// SameLaunch reports whether c and o connect the same way: the fields
// Fingerprint hashes, compared directly. A reload compares every running
// server with its entry, and hashing thousands of configs twice per pass
// cost more than the rest of the pass; an empty and an absent list or
// map launch the same and count as equal here.
func (c ServerConfig) SameLaunch(o ServerConfig) bool { return c.sameLaunch(&o) }

// sameLaunch is SameLaunch without copying either config, for the
// reconcile pass that compares every running server.
func (c *ServerConfig) sameLaunch(o *ServerConfig) bool {
	return c.Transport == o.Transport && c.Command == o.Command && slices.Equal(c.Args, o.Args) &&
		maps.Equal(c.Env, o.Env) && c.Cwd == o.Cwd && c.URL == o.URL && maps.Equal(c.Headers, o.Headers) &&
		c.Raw.same(o.Raw) && c.OAuth.same(o.OAuth)
}

// same compares two entries as written.
func (r RawConfig) same(o RawConfig) bool {
	return r.Command == o.Command && slices.Equal(r.Args, o.Args) && maps.Equal(r.Env, o.Env) &&
		r.Cwd == o.Cwd && r.URL == o.URL && maps.Equal(r.Headers, o.Headers) && r.OAuth.same(o.OAuth)
}

// same compares two "oauth" keys; absent equals only absent.
func (a *OAuthSettings) same(b *OAuthSettings) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ClientID == b.ClientID && a.ClientSecret == b.ClientSecret &&
		slices.Equal(a.Scopes, b.Scopes) && a.ClientMetadataURL == b.ClientMetadataURL
}
