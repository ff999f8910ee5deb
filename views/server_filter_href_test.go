package views_test

import (
	"net/url"
	"testing"

	"github.com/switchboard-mcp/switchboard/views"
)

// TestServerFilterHrefKeepsCallFilters: a state link keeps the call
// list's filters and replaces only the state.
func TestServerFilterHrefKeepsCallFilters(t *testing.T) {
	q := url.Values{"status": {"error"}, "server": {"a b"}, "state": {"connected"}}
	for group, want := range map[string]string{
		"failing": "?server=a+b&state=failing&status=error",
		"":        "?server=a+b&status=error",
		"<b>":     "?server=a+b&status=error",
	} {
		if got := views.ServerFilterHrefKeeping(q, group); got != want {
			t.Errorf("ServerFilterHrefKeeping(%q) = %q, want %q", group, got, want)
		}
	}
	if got := views.ServerFilterHrefKeeping(nil, ""); got != "?" {
		t.Errorf("no query, all servers: %q, want ?", got)
	}
	if q.Get("state") != "connected" {
		t.Errorf("the page's query was changed: %v", q)
	}
}
