package domain_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestSameLaunchAgreesWithFingerprint: every field the fingerprint hashes
// changes SameLaunch's answer the same way, and Switchboard's own keys
// change neither.
func TestSameLaunchAgreesWithFingerprint(t *testing.T) {
	base := func() domain.ServerConfig {
		return domain.ServerConfig{Name: "a", Transport: domain.TransportStdio, Command: "npx", Args: []string{"-y", "srv"},
			Env: map[string]string{"K": "v"}, Cwd: "/w", Headers: map[string]string{"H": "1"},
			OAuth: &domain.OAuthSettings{ClientID: "c", Scopes: []string{"s"}},
			Raw: domain.RawConfig{Command: "npx", Args: []string{"-y", "srv"}, Env: map[string]string{"K": "${V}"},
				OAuth: &domain.OAuthSettings{ClientID: "c"}}}
	}
	edits := map[string]func(*domain.ServerConfig){
		"transport":      func(c *domain.ServerConfig) { c.Transport = domain.TransportHTTP },
		"command":        func(c *domain.ServerConfig) { c.Command = "node" },
		"argument order": func(c *domain.ServerConfig) { c.Args = []string{"srv", "-y"} },
		"env value":      func(c *domain.ServerConfig) { c.Env = map[string]string{"K": "w"} },
		"cwd":            func(c *domain.ServerConfig) { c.Cwd = "/x" },
		"url":            func(c *domain.ServerConfig) { c.URL = "http://x" },
		"header":         func(c *domain.ServerConfig) { c.Headers = map[string]string{"H": "2"} },
		"oauth scopes":   func(c *domain.ServerConfig) { c.OAuth.Scopes = []string{"t"} },
		"oauth removed":  func(c *domain.ServerConfig) { c.OAuth = nil },
		"raw env":        func(c *domain.ServerConfig) { c.Raw.Env = map[string]string{"K": "${W}"} },
		"raw oauth":      func(c *domain.ServerConfig) { c.Raw.OAuth.ClientSecret = "s" },
		"raw url":        func(c *domain.ServerConfig) { c.Raw.URL = "http://y" },
	}
	for name, edit := range edits {
		a, b := base(), base()
		edit(&b)
		if a.SameLaunch(b) || a.Fingerprint() == b.Fingerprint() {
			t.Errorf("%s: SameLaunch %v, same fingerprint %v; want both false", name, a.SameLaunch(b), a.Fingerprint() == b.Fingerprint())
		}
	}
	a, b := base(), base()
	b.KeepAlive, b.AutoReconnect, b.Disabled = 5, !a.AutoReconnect, true
	if !a.SameLaunch(b) || a.Fingerprint() != b.Fingerprint() {
		t.Error("Switchboard's own keys changed how a server launches")
	}
}
