package mcpserver_test

import (
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestClientsHearOfNewTools: a legacy session and a 2026-07-28 client on
// its subscriptions/listen stream both receive tools/list_changed when a
// server joins.
func TestClientsHearOfNewTools(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha"))

	legacy := f.dial(t, "/mcp", true)
	legacyHeard := make(chan string, 16)
	legacy.OnNotification(func(n mcp.JSONRPCNotification) { legacyHeard <- n.Method })

	modern := f.dial(t, "/mcp", false)
	modernHeard := make(chan string, 16)
	modern.OnNotification(func(n mcp.JSONRPCNotification) { modernHeard <- n.Method })
	stop, err := modern.ListenAsync(t.Context(), mcp.SubscriptionFilter{ToolsListChanged: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	await(t, modernHeard, mcp.MethodNotificationSubscriptionsAcknowledged)

	f.connect(t, "beta", echoCaps("beta"))
	await(t, modernHeard, string(mcp.MethodNotificationToolsListChanged))
	// Without a GET stream a legacy session's notification rides on its
	// next request.
	if err := legacy.Ping(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, legacyHeard, string(mcp.MethodNotificationToolsListChanged))
}

func await(t *testing.T, heard <-chan string, method string) {
	t.Helper()
	deadline := time.After(patience)
	for {
		select {
		case m := <-heard:
			if m == method {
				return
			}
		case <-deadline:
			t.Fatalf("no %s arrived", method)
		}
	}
}
