package domain_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestSettingsOAuthKeyExpandsAndRedactsTheSecret(t *testing.T) {
	env := map[string]string{"GH_ID": "Iv1.abc", "GH_SECRET": "s3cr3t-value-of-the-client"}
	file := `{"mcpServers": {"gh": {"url": "https://api.example.com/mcp", "oauth": {
		"clientId": "${GH_ID}", "clientSecret": "${GH_SECRET}", "scopes": ["repo", "read:org"],
		"clientMetadataUrl": "https://switchboard.example/client.json"}}}}`
	set, err := domain.ParseSettings("s.json", []byte(file), func(k string) string { return env[k] })
	if err != nil || len(set.Servers) != 1 {
		t.Fatalf("ParseSettings: %v, %d servers", err, len(set.Servers))
	}
	o := set.Servers[0].OAuth
	if o == nil || o.ClientID != "Iv1.abc" || o.ClientSecret != env["GH_SECRET"] ||
		!slices.Equal(o.Scopes, []string{"repo", "read:org"}) || o.ClientMetadataURL != "https://switchboard.example/client.json" {
		t.Fatalf("oauth: got %+v", o)
	}
	if got := set.Servers[0].Redactor().Redact("token endpoint said: bad secret " + env["GH_SECRET"]); strings.Contains(got, env["GH_SECRET"]) {
		t.Fatalf("the client secret survived redaction: %q", got)
	}
}

func TestSettingsOAuthKeyCountsInTheFingerprint(t *testing.T) {
	cfg := domain.ServerConfig{Name: "a", Transport: domain.TransportHTTP, URL: "https://x.example/mcp"}
	with := cfg
	with.OAuth = &domain.OAuthSettings{ClientID: "id"}
	if cfg.Fingerprint() == with.Fingerprint() {
		t.Fatal("an oauth key does not change the fingerprint")
	}
	if cfg.OAuth != nil {
		t.Fatal("no oauth key should parse to nil")
	}
}
