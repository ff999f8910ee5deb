package domain_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// npm prints where its log went; the cache directory is configuration, not
// a secret, so the path stays readable while the token beside it is hidden.
func TestRedactorKeepsPlainEnvValues(t *testing.T) {
	cfg := domain.ServerConfig{Transport: domain.TransportStdio, Command: "npx",
		Env: map[string]string{"npm_config_cache": "/home/u/.npm", "NODE_ENV": "production", "GITHUB_TOKEN": "hunter2-not-random"}}
	line := "npm error A complete log of this run can be found in: /home/u/.npm/_logs/2025-11-25T10_00_00_000Z-debug-0.log (NODE_ENV=production, token hunter2-not-random)"
	want := "npm error A complete log of this run can be found in: /home/u/.npm/_logs/2025-11-25T10_00_00_000Z-debug-0.log (NODE_ENV=production, token " + domain.Redacted + ")"
	if got := cfg.Redactor().Redact(line); got != want {
		t.Errorf("Redact()\n got %q\nwant %q", got, want)
	}
}

// Which env var and header names mark their value as secret. The value is
// plain text, so only the name decides.
func TestRedactorSecretNames(t *testing.T) {
	const value = "plain words here"
	tests := []struct {
		name   string
		secret bool
	}{
		{"GITHUB_TOKEN", true},
		{"GITHUB_PERSONAL_ACCESS_TOKEN", true},
		{"OPENAI_API_KEY", true},
		{"X-Api-Key", true},
		{"apiKey", true},
		{"accessToken", true},
		{"Authorization", true},
		{"Proxy-Authorization", true},
		{"Cookie", true},
		{"Set-Cookie", true},
		{"npm_config__auth", true},
		{"npm_config_//registry.npmjs.org/:_authToken", true},
		{"DB_PASSWORD", true},
		{"PGPASSWORD", true},
		{"MYSQL_PWD", true},
		{"SMTP_PASS", true},
		{"CLIENT_SECRET", true},
		{"CLIENTSECRET", true},
		{"GOOGLE_APPLICATION_CREDENTIALS", true},
		{"SESSION_ID", true},
		{"PRIVATE_KEY", true},
		{"X-Signature", true},
		{"KEY", true},
		{"SENTRY_DSN", true},
		{"npm_config_cache", false},
		{"PATH", false},
		{"HOME", false},
		{"LOG_LEVEL", false},
		{"NODE_ENV", false},
		{"NODE_OPTIONS", false},
		{"KEYBOARD_LAYOUT", false},
		{"MONKEY", false},
		{"AUTHOR_NAME", false},
		{"PASSTHROUGH", false},
		{"TOKEN_URL", false},
		{"API_BASE_URL", false},
		{"OPENAI_API_BASE", false},
		{"API_VERSION", false},
		{"AUTH_MODE", false},
		{"SSL_KEY_FILE", false},
		{"SESSION_DIR", false},
		{"Content-Type", false},
		{"X-Request-Source", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := domain.ServerConfig{Env: map[string]string{tt.name: value}}
			hdr := domain.ServerConfig{Headers: map[string]string{tt.name: value}}
			for kind, cfg := range map[string]domain.ServerConfig{"env": env, "header": hdr} {
				got := cfg.Redactor().Redact("got " + value)
				if hidden := !strings.Contains(got, value); hidden != tt.secret {
					t.Errorf("%s %q: hidden %v, want %v (got %q)", kind, tt.name, hidden, tt.secret, got)
				}
			}
		})
	}
}

// A value that looks like a credential is hidden whatever its name; one
// that a person wrote is not, and words too common to be secret are kept
// even under a secret name.
func TestRedactorCredentialValues(t *testing.T) {
	tests := []struct {
		name, key, value string
		secret           bool
	}{
		{"github-token", "GH", "ghp_abcdefgh12", true},
		{"openai-key", "OPENAI", "sk-proj-abcdef12", true},
		{"slack-bot", "SLACK", "xoxb-1234-abcdefgh", true},
		{"aws-access-key", "AWS_ID", "AKIAABCDEFGH12345678", true},
		{"jwt", "BEARER", "eyJhbGciOiJIUzI1NiJ9", true},
		{"random", "X_VALUE", "a8f3k2m9q7w1e5r6t4y0", true},
		{"uuid", "SERVICE", "123e4567-e89b-12d3-a456-426614174000", true},
		{"bearer-header", "X-Forward", "Bearer abc123def456ghi789jkl", true},
		{"path", "npm_config_cache", "/home/u/.npm", false},
		{"word", "NODE_ENV", "production", false},
		{"date", "SINCE", "2025-11-25", false},
		{"node-flag", "NODE_OPTIONS", "--max-old-space-size=4096", false},
		{"package", "PKG", "@modelcontextprotocol/server-everything", false},
		{"long-name", "SERVICE", "model-context-protocol-server", false},
		{"node-build", "NODE_BUILD", "node-v20.11.1-linux-x64", false},
		{"sk-word", "LIB", "sk-learn", false},
		{"flag-under-secret-name", "PASS_THROUGH", "true", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := domain.ServerConfig{Env: map[string]string{tt.key: tt.value}}
			got := cfg.Redactor().Redact("value: " + tt.value + ".")
			if hidden := !strings.Contains(got, tt.value); hidden != tt.secret {
				t.Errorf("%s=%q: hidden %v, want %v (got %q)", tt.key, tt.value, hidden, tt.secret, got)
			}
		})
	}
}

// Tokens with a well-known prefix are hidden even when no setting declared
// them, since a child inherits Switchboard's environment.
func TestRedactKnownTokens(t *testing.T) {
	const R = domain.Redacted
	r := domain.NewRedactor()
	tests := []struct {
		name, in, want string
	}{
		{"github", "auth as ghp_0123456789abcdefghijABCDEFGHIJ failed", "auth as " + R + " failed"},
		{"github-pat", "pat github_pat_11ABCDEFG0123456789_abcdefghij", "pat " + R},
		{"slack", "slack: xoxb-123456789012-abcdefghij", "slack: " + R},
		{"aws", "key AKIAIOSFODNN7EXAMPLE used", "key " + R + " used"},
		{"openai", "sk-proj-0123456789abcdefghij0123456789ABCDEF rejected", R + " rejected"},
		{"jwt", "got eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok",
			"got " + R + " ok"},
		{"npm", "npm_0123456789abcdefghijABCDEFGHIJ012345 expired", R + " expired"},
		{"short-sk-kept", "see sk-learn and risk-free", "see sk-learn and risk-free"},
		{"gh-word-kept", "ghp_ prefix documented", "ghp_ prefix documented"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}
