package main

import (
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// A server waiting for a person to sign in says so in words, never as an
// error; a connected server's sign-in trouble is a note after its tools.
func TestStatusLineSaysWhereSignInStands(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	str := func(s string) *string { return &s }
	waiting := func(a handlers.AuthDTO) handlers.StatusDTO {
		return handlers.StatusDTO{ServerName: "gh", State: "error", ErrorCategory: str("sign_in"), Error: str("sign_in: 401"), Auth: &a}
	}
	tests := []struct {
		name string
		in   handlers.StatusDTO
		want string
	}{
		{"sign-in needed", waiting(handlers.AuthDTO{State: "sign_in_needed"}),
			"● gh\tsign-in needed\topen the dashboard and choose Sign in"},
		{"more access", waiting(handlers.AuthDTO{State: "sign_in_needed", MoreAccess: true, Scopes: []string{"repo", "write"}}),
			"● gh\tsign-in needed\tsign in with more access from the dashboard (scopes: repo write)"},
		{"signing in", waiting(handlers.AuthDTO{State: "signing_in"}),
			"● gh\tsigning in\twaiting for the browser to come back"},
		{"needs a client id", waiting(handlers.AuthDTO{State: "needs_client_id", RedirectURI: str("http://127.0.0.1:7391/oauth/callback")}),
			"● gh\tneeds a client ID\tregister a client with redirect URI http://127.0.0.1:7391/oauth/callback and enter its ID in the dashboard"},
		{"failed", waiting(handlers.AuthDTO{State: "failed", Detail: str("access_denied: the user said no")}),
			"● gh\tsign-in failed\taccess_denied: the user said no"},
		{"connected and signed in", handlers.StatusDTO{ServerName: "gh", State: "connected", ToolCount: 3, Auth: &handlers.AuthDTO{State: "signed_in"}},
			"● gh\tconnected\t3 tools"},
		{"connected, refresh failing", handlers.StatusDTO{ServerName: "gh", State: "connected", ToolCount: 3,
			Auth: &handlers.AuthDTO{State: "refresh_failing", Detail: str("token endpoint: 503")}},
			"● gh\tconnected\t3 tools; sign-in refresh failing: token endpoint: 503; retrying"},
		{"other error, refresh failing", handlers.StatusDTO{ServerName: "gh", State: "error", ErrorCategory: str("refused"),
			Auth: &handlers.AuthDTO{State: "refresh_failing"}},
			"● gh\terror: refused, no automatic retry\tsign-in refresh failing: retrying"},
		{"refused as too narrow while connecting", waiting(handlers.AuthDTO{State: "signed_in", MoreAccess: true, Scopes: []string{"read", "admin"}}),
			"● gh\tmore access needed\tsign in with more access from the dashboard (scopes: read admin)"},
		{"connected, a call needs more access", handlers.StatusDTO{ServerName: "gh", State: "connected", ToolCount: 1,
			Auth: &handlers.AuthDTO{State: "signed_in", MoreAccess: true, Scopes: []string{"write"}}},
			"● gh\tconnected\t1 tool; more access needed: sign in with more access from the dashboard (scopes: write)"},
		{"refused, nothing known of the sign-in", handlers.StatusDTO{ServerName: "gh", State: "error", ErrorCategory: str("sign_in")},
			"● gh\tsign-in needed\topen the dashboard and choose Sign in"},
		{"disabled", handlers.StatusDTO{ServerName: "gh", State: "disabled", Auth: &handlers.AuthDTO{State: "sign_in_needed"}},
			"● gh\tdisabled"},
		{"escaped", waiting(handlers.AuthDTO{State: "failed", Detail: str("bad\x1b[2J")}),
			"● gh\tsign-in failed\tbad\\x1b[2J"},
	}
	for _, tt := range tests {
		if got := statusLine(english, tt.in, now); got != tt.want {
			t.Errorf("%s: statusLine = %q, want %q", tt.name, got, tt.want)
		}
	}
}
