package domain

import (
	"fmt"
	"strings"
	"time"
)

// Transport is how Switchboard talks to a server.
type Transport string

const (
	TransportStdio Transport = "stdio"
	TransportHTTP  Transport = "http"
	TransportSSE   Transport = "sse"
)

// Defaults for Switchboard's own per-server keys.
const (
	DefaultKeepAlive      = 30 * time.Second
	DefaultConnectTimeout = 30 * time.Second
	DefaultStartTimeout   = 120 * time.Second
	DefaultCallTimeout    = 60 * time.Second
)

// ServerConfig is one resolved server entry: variables expanded, transport
// decided and defaults applied, so the supervisor never re-reads settings.
type ServerConfig struct {
	Name      string
	Source    string // the settings file the entry came from; empty for the built-in demo
	Transport Transport

	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	// BaseDir is where a stdio server without cwd runs: its project's
	// directory, or the user's home for a user's own server. See WorkDir.
	BaseDir string

	URL     string
	Headers map[string]string
	// OAuth is the entry's "oauth" key, expanded; nil when absent. A
	// remote server may ask for OAuth without it: the key only says how
	// Switchboard identifies itself when it does.
	OAuth *OAuthSettings

	Disabled       bool
	AutoReconnect  bool
	KeepAlive      time.Duration
	ConnectTimeout time.Duration
	// StartTimeout bounds the handshake that follows starting a stdio
	// server's process: an `npx -y` entry may spend a minute downloading
	// before it can answer, and a shorter limit would kill it every time.
	StartTimeout time.Duration
	CallTimeout  time.Duration // deadline of one tools/call

	// Raw is the entry as the file spells it, before ${VAR} expansion. An
	// approval shows it, so a person judges the file's own text and no
	// value read from the environment ever reaches the screen.
	Raw RawConfig

	// Blocked, when set, keeps the server from connecting (gating lists,
	// approval of project servers); it is decided outside the file entry.
	Blocked BlockedReason
	// Approval is what a person is asked about a project server that
	// awaits or lost a decision; nil for every other server.
	Approval *ApprovalRequest
}

// RawConfig holds the values of an entry that decide what runs, exactly as
// the file writes them: ${VAR} references unexpanded.
type RawConfig struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// OAuth is the "oauth" key as written, ${VAR} unexpanded; nil when
	// absent, so configs without it fingerprint as before.
	OAuth *OAuthSettings `json:"oauth,omitempty"`
}

// Written returns the entry as the file spells it. A config that did not
// come from a file (the built-in demo, tests) has no variables to hide, so
// its resolved values are what was written.
func (c ServerConfig) Written() RawConfig {
	if c.Raw.Command != "" || c.Raw.URL != "" {
		return c.Raw
	}
	return RawConfig{Command: c.Command, Args: c.Args, Env: c.Env, Cwd: c.Cwd, URL: c.URL, Headers: c.Headers, OAuth: c.OAuth}
}

// Target is the redacted command line or URL shown to users, so that a
// token passed in an argument or a query string never reaches the screen.
func (c ServerConfig) Target() string {
	r := c.Redactor()
	if c.Transport == TransportStdio {
		parts := make([]string, 0, len(c.Args)+1)
		parts = append(parts, quoteArg(c.Command))
		for _, a := range c.Args {
			parts = append(parts, quoteArg(a))
		}
		return r.Redact(strings.Join(parts, " "))
	}
	return r.Redact(c.URL)
}

// Redactor returns the redactor that hides this server's configured secrets:
// the env and header values whose name says they are secret (GITHUB_TOKEN,
// Authorization) or that look like credentials. Other values, such as
// npm_config_cache's directory, are not secrets, and hiding them would
// blank the paths and words in stderr that explain a failure.
func (c ServerConfig) Redactor() Redactor {
	var secrets []string
	for k, v := range c.Env {
		if secretSetting(k, v) {
			secrets = append(secrets, v)
		}
	}
	for k, v := range c.Headers {
		if secretSetting(k, v) {
			secrets = append(secrets, v)
		}
	}
	secrets = append(secrets, oauthSecrets(c.OAuth)...)
	return NewRedactor(secrets...)
}

func quoteArg(s string) string {
	if s == "" {
		return `""`
	}
	if strings.ContainsAny(s, " \t\"'") {
		return fmt.Sprintf("%q", s)
	}
	return s
}

// connectTimeout is the handshake deadline; an unset one means the default
// rather than an already expired deadline.
func (c ServerConfig) connectTimeout() time.Duration {
	if c.ConnectTimeout <= 0 {
		return DefaultConnectTimeout
	}
	return c.ConnectTimeout
}

// startTimeout is the deadline of a stdio server's first handshake, the
// default when unset.
func (c ServerConfig) startTimeout() time.Duration {
	if c.StartTimeout <= 0 {
		return DefaultStartTimeout
	}
	return c.StartTimeout
}

// attemptLimit is how long one connection attempt may take and the setting
// that says so: every stdio attempt starts a process, so it has the start
// limit; a remote server is already running and has the connect limit.
func (c ServerConfig) attemptLimit() (time.Duration, string) {
	if c.Transport == TransportStdio {
		return c.startTimeout(), StartTimeoutRange.Key
	}
	return c.connectTimeout(), ConnectTimeoutRange.Key
}

// callTimeout is the tools/call deadline, the default when unset.
func (c ServerConfig) callTimeout() time.Duration {
	if c.CallTimeout <= 0 {
		return DefaultCallTimeout
	}
	return c.CallTimeout
}
