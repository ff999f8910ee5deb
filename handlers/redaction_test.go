package handlers_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// secrets are the values the leaky servers below are configured with.
var secrets = []string{"sekret-value-123", "abc.def", "xyz123456", "hunter2pass"}

func leakyConfigs() []domain.ServerConfig {
	env := map[string]string{"API_TOKEN": "sekret-value-123"}
	headers := map[string]string{"Authorization": "Bearer abc.def"}
	cli := stdio("leaky-stdio")
	cli.Args = []string{"-y", "mcp-remote", "--token=xyz123456", "https://bob:hunter2pass@mcp.example.com/sse"}
	cli.Env, cli.Headers = env, headers
	web := domain.ServerConfig{
		Name: "leaky-http", Source: settingsPath, Transport: domain.TransportHTTP,
		URL: "https://bob:hunter2pass@mcp.example.com/mcp", Env: env, Headers: headers,
		AutoReconnect: true, ConnectTimeout: cli.ConnectTimeout,
	}
	return []domain.ServerConfig{cli, web}
}

// leak is an error message quoting every secret the way real failures do.
const leak = "spawn npx --token=xyz123456 with API_TOKEN=sekret-value-123: " +
	"GET https://bob:hunter2pass@mcp.example.com/sse: 401 (Authorization: Bearer abc.def)"

func TestNoSecretInAnyResponse(t *testing.T) {
	f := newFixture(t)
	s := f.openEvents(t)
	cfgs := leakyConfigs()
	for _, cfg := range cfgs {
		f.attach(t, cfg)
		a := f.conn.Next(t)
		fmt.Fprintf(a.Stderr, "starting with API_TOKEN=sekret-value-123 --token=xyz123456\n")
		fmt.Fprintf(a.Stderr, "upstream said: Authorization: Bearer abc.def\n")
		if cfg.Transport == domain.TransportStdio {
			a.Fail(&domain.ConnError{Category: domain.CategoryExited, ExitCode: 1, Err: errors.New(leak)})
		} else {
			a.Fail(&domain.ConnError{Category: domain.CategoryAuth, Err: errors.New(leak)})
		}
		waitFor(t, f.fleet.Hub(), cfg.Name, "failed", func(s domain.Status) bool { return s.State == domain.StateError })
	}

	var bodies []string
	for _, fr := range collectUntilErrors(t, s, len(cfgs)) {
		bodies = append(bodies, "event "+fr.Raw)
	}
	_, list := f.do(t, http.MethodGet, handlers.PathServers, nil)
	bodies = append(bodies, "list "+string(list))
	for _, cfg := range cfgs {
		status, detail := f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathServer, cfg.Name), nil)
		if status != http.StatusOK {
			t.Fatalf("GET %s: status %d", cfg.Name, status)
		}
		d := decode[handlers.ServerDetailDTO](t, detail)
		if d.Error == nil || d.ErrorCategory == nil || len(d.Stderr) != 2 {
			t.Errorf("%s: got error %v category %v stderr %q, want the failure and two stderr lines",
				cfg.Name, d.Error, d.ErrorCategory, d.Stderr)
		}
		bodies = append(bodies, "detail "+string(detail))
	}

	for _, body := range bodies {
		for _, secret := range secrets {
			if strings.Contains(body, secret) {
				t.Errorf("response reveals %q: %s", secret, body)
			}
		}
	}
}

// collectUntilErrors reads frames until n servers have been seen failing.
func collectUntilErrors(t *testing.T, s *sseStream, n int) []sseFrame {
	t.Helper()
	failed := map[string]bool{}
	_, seen := s.until(t, fmt.Sprintf("%d failed servers", n), func(fr sseFrame) bool {
		st := statusOf(t, fr)
		if st.State == string(domain.StateError) {
			failed[st.ServerName] = true
		}
		return len(failed) == n
	})
	return seen
}
