package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// A server that writes one endless line is stopped with a clear protocol
// error; the server beside it stays connected and Switchboard keeps
// serving. Memory figures for this case are in the README's benchmarks.
func TestEndlessLineStopsOnlyThatServer(t *testing.T) {
	settings := writeSettings(t, map[string]any{
		"noline": map[string]any{"command": "sh", "args": []string{"-c", "exec cat /dev/zero"}, "autoReconnect": false},
		"demo":   demoServer(),
	})
	p := launch(t, t.TempDir(), "--settings", settings, "--max-message-bytes", "1048576")
	p.events("demo", isState("connected"))
	seen := p.events("noline", isState("error"))
	last := seen[len(seen)-1]
	if last.ErrorCategory == nil || *last.ErrorCategory != "protocol" {
		t.Errorf("noline: category %v, want protocol", last.ErrorCategory)
	}
	if last.Error == nil || !strings.Contains(*last.Error, "1 MiB") {
		t.Errorf("noline: error %v, want it to name the 1 MiB limit", last.Error)
	}
	if s := p.status("demo"); s.State != "connected" {
		t.Errorf("demo after noline was stopped: %s, want connected", s.State)
	}
	if code, body := p.do(http.MethodGet, handlers.PathHealth); code != http.StatusOK {
		t.Errorf("healthz: %d %s", code, body)
	}
}
