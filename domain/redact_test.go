package domain_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestRedact(t *testing.T) {
	r := domain.NewRedactor("sekret-env-value", "abc")
	tests := []struct {
		name, in, want string
	}{
		{"bearer", "401: Authorization: Bearer eyJhbGciOi.x.y failed", "401: Authorization: " + domain.Redacted + " failed"},
		{"bare bearer", "sent bearer abc123def", "sent bearer " + domain.Redacted},
		{"userinfo", "dial https://user:pa55@host.example/mcp", "dial https://" + domain.Redacted + "@host.example/mcp"},
		{"query", "GET https://h/mcp?api_key=XYZ&x=1&token=T2", "GET https://h/mcp?api_key=" + domain.Redacted + "&x=1&token=" + domain.Redacted},
		{"flag", "node server.js --api-key=K123 --token T456 --port 3", "node server.js --api-key=" + domain.Redacted + " --token " + domain.Redacted + " --port 3"},
		{"literal env value", "boom: sekret-env-value leaked", "boom: " + domain.Redacted + " leaked"},
		{"short literals are ignored", "abc is fine", "abc is fine"},
		{"header json", `{"x-api-key": "k-999"}`, `{"x-api-key": "` + domain.Redacted + `"}`},
		{"key=value", "dial failed: token=sekret9 and password = hunter22", "dial failed: token=" + domain.Redacted + " and password = " + domain.Redacted},
		{"plain text untouched", "exited (code 1)", "exited (code 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTargetIsRedacted(t *testing.T) {
	stdio := domain.ServerConfig{Transport: domain.TransportStdio, Command: "npx", Args: []string{"-y", "srv", "--token=zzz999", "sekret-value"},
		Env: map[string]string{"API_TOKEN": "sekret-value"}}
	if got := stdio.Target(); strings.Contains(got, "zzz999") || strings.Contains(got, "sekret-value") {
		t.Errorf("Target() = %q, leaks a secret", got)
	}
	remote := domain.ServerConfig{Transport: domain.TransportHTTP, URL: "https://u:p@h.example/mcp?access_token=qq", Headers: map[string]string{"Authorization": "Bearer t"}}
	if got, want := remote.Target(), "https://"+domain.Redacted+"@h.example/mcp?access_token="+domain.Redacted; got != want {
		t.Errorf("Target() = %q, want %q", got, want)
	}
}
