package main

import (
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

func TestStatusLine(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	str := func(s string) *string { return &s }
	code := func(n int) *int { return &n }
	at := func(d time.Duration) *int64 { v := now.Add(d).UnixMilli(); return &v }
	tests := []struct {
		name string
		in   handlers.StatusDTO
		want string
	}{
		{"connected", handlers.StatusDTO{ServerName: "everything", State: "connected", ToolCount: 12}, "● everything\tconnected\t12 tools"},
		{"one tool", handlers.StatusDTO{ServerName: "x", State: "connected", ToolCount: 1}, "● x\tconnected\t1 tool"},
		{"crash with retry", handlers.StatusDTO{ServerName: "flaky", State: "error", ErrorCategory: str("exited"), ExitCode: code(1), Retryable: true, NextRetryAt: at(4 * time.Second)},
			"● flaky\terror: exited (code 1), retry in 4s"},
		{"permanent", handlers.StatusDTO{ServerName: "tls", State: "error", ErrorCategory: str("tls")}, "● tls\terror: tls, no automatic retry"},
		{"connecting", handlers.StatusDTO{ServerName: "c", State: "connecting"}, "● c\tconnecting"},
		{"pending approval", handlers.StatusDTO{ServerName: "p", State: "disabled", BlockedReason: str("pending_approval")},
			"● p\tblocked\tproject server awaiting approval; open the dashboard to review it"},
		{"auto-disabled", handlers.StatusDTO{ServerName: "z", State: "disabled", DisabledReason: str("auto"), Attempt: 5}, "● z\tdisabled\tafter 5 failures; enable it to retry"},
	}
	for _, tt := range tests {
		if got := statusLine(english, tt.in, now); got != tt.want {
			t.Errorf("%s: statusLine = %q, want %q", tt.name, got, tt.want)
		}
	}
}
