package settingsfile_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// loadEntry loads a file holding one server, "s", written as entry.
func loadEntry(t *testing.T, entry string) domain.ServerConfig {
	t.Helper()
	set := load(t, fmt.Sprintf(`{"mcpServers": {"s": %s}}`, entry), noEnv)
	if len(set.Servers) != 1 {
		t.Fatalf("Servers: got %v, want one", set.Servers)
	}
	return set.Servers[0]
}

func TestLoadResolvesTransport(t *testing.T) {
	tests := []struct {
		name    string
		entry   string
		want    domain.Transport
		wantURL string
	}{
		{"explicit-http-beats-sse-path", `{"type": "http", "url": "https://x.example/sse"}`, domain.TransportHTTP, "https://x.example/sse"},
		{"explicit-sse-beats-plain-path", `{"type": "sse", "url": "https://x.example/mcp"}`, domain.TransportSSE, "https://x.example/mcp"},
		{"explicit-stdio-beats-url", `{"type": "stdio", "command": "npx", "url": "https://x.example/mcp"}`, domain.TransportStdio, "https://x.example/mcp"},
		{"streamable-http-alias", `{"type": "streamable-http", "url": "https://x.example/mcp"}`, domain.TransportHTTP, "https://x.example/mcp"},
		{"type-ignores-case", `{"type": "SSE", "url": "https://x.example/mcp"}`, domain.TransportSSE, "https://x.example/mcp"},
		{"httpUrl-is-http", `{"httpUrl": "https://x.example/sse"}`, domain.TransportHTTP, "https://x.example/sse"},
		{"httpUrl-beats-url", `{"httpUrl": "https://a.example/mcp", "url": "https://b.example/sse"}`, domain.TransportHTTP, "https://a.example/mcp"},
		{"url-is-http", `{"url": "https://x.example/mcp"}`, domain.TransportHTTP, "https://x.example/mcp"},
		{"url-ending-sse-is-sse", `{"url": "https://x.example/v1/sse"}`, domain.TransportSSE, "https://x.example/v1/sse"},
		{"url-ending-sse-slash-is-sse", `{"url": "https://x.example/sse/"}`, domain.TransportSSE, "https://x.example/sse/"},
		{"url-sse-with-query-is-sse", `{"url": "https://x.example/sse?key=1"}`, domain.TransportSSE, "https://x.example/sse?key=1"},
		{"url-sse-inside-a-segment-is-http", `{"url": "https://x.example/assets/my-sse"}`, domain.TransportHTTP, "https://x.example/assets/my-sse"},
		{"sse-host-is-http", `{"url": "https://sse.example/mcp"}`, domain.TransportHTTP, "https://sse.example/mcp"},
		{"command-is-stdio", `{"command": "npx"}`, domain.TransportStdio, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := loadEntry(t, tt.entry)
			if got.Transport != tt.want || got.URL != tt.wantURL {
				t.Errorf("got %s %q, want %s %q", got.Transport, got.URL, tt.want, tt.wantURL)
			}
		})
	}
}

func TestLoadAppliesDefaultsAndOverrides(t *testing.T) {
	type knobs struct {
		Disabled       bool
		AutoReconnect  bool
		KeepAlive      time.Duration
		ConnectTimeout time.Duration
	}
	tests := []struct {
		name  string
		entry string
		want  knobs
	}{
		{"defaults", `{"command": "npx"}`, knobs{false, true, 30 * time.Second, 30 * time.Second}},
		{"keepalive-zero-is-off", `{"command": "npx", "keepAliveSeconds": 0}`, knobs{false, true, 0, 30 * time.Second}},
		{"fractional-seconds", `{"command": "npx", "keepAliveSeconds": 7.5, "connectTimeoutSeconds": 1.25}`, knobs{false, true, 7500 * time.Millisecond, 1250 * time.Millisecond}},
		{"range-edges", `{"command": "npx", "keepAliveSeconds": 3600, "connectTimeoutSeconds": 600}`, knobs{false, true, time.Hour, 10 * time.Minute}},
		{"no-reconnect", `{"command": "npx", "autoReconnect": false}`, knobs{false, false, 30 * time.Second, 30 * time.Second}},
		{"disabled", `{"command": "npx", "disabled": true}`, knobs{true, true, 30 * time.Second, 30 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := loadEntry(t, tt.entry)
			if got := (knobs{c.Disabled, c.AutoReconnect, c.KeepAlive, c.ConnectTimeout}); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestLoadIgnoresUnknownKeys(t *testing.T) {
	set := load(t, `{
  "$schema": "https://example.com/settings.schema.json",
  "theme": {"dark": true},
  "mcpServers": {
    "s": {"command": "npx", "alwaysAllow": ["read"], "timeout": 60000, "description": "a server", "disabled": false}
  }
}`, noEnv)
	if len(set.Servers) != 1 || set.Servers[0].Command != "npx" {
		t.Errorf("Servers: got %+v, want s running npx", set.Servers)
	}
}
