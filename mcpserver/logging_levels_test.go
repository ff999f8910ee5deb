package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// upstreamLevels records the levels asked of servers, as the fleet would
// pass them on.
type upstreamLevels struct {
	mu    sync.Mutex // guards asked
	asked []string
}

func (u *upstreamLevels) SetLogLevel(_ context.Context, server, level string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.asked = append(u.asked, server+"="+level)
	return nil
}

func (u *upstreamLevels) calls() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return strings.Join(u.asked, ",")
}

// withLevels replaces f's gateway with one that passes on feed's messages
// and combines its clients' levels with the drawer's in logs.
func (f *fixture) withLevels(t *testing.T, feed *domain.ServerNotifications, logs *domain.ServerLogs) {
	t.Helper()
	f.withOptions(t, mcpserver.Options{Fleet: f.fleet, Invocations: f.inv, Scope: scope, Clock: f.clock, Version: "test",
		Notifications: feed, LogLevels: logs})
}

// TestGatewayAndDrawerLevelsCombine: the drawer asks for warning and a
// gateway client for debug; the server is asked for debug, the client
// hears debug, the drawer still keeps warning and above only, and when
// the client goes the server is asked for warning again.
func TestGatewayAndDrawerLevelsCombine(t *testing.T) {
	f := newFixture(t)
	feed := domain.NewServerNotifications()
	up := &upstreamLevels{}
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Levels: up, Burst: -1})
	f.withLevels(t, feed, logs)
	f.connect(t, "alpha", echoCaps("alpha"))

	if err := logs.SetLevel(t.Context(), "alpha", "warning"); err != nil {
		t.Fatal(err)
	}
	c := f.dial(t, "/mcp/alpha", true, transport.WithContinuousListening())
	heard := make(chan mcp.LoggingMessageNotificationParams, 16)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != string(mcp.MethodNotificationMessage) {
			return
		}
		b, _ := json.Marshal(n.Params)
		var p mcp.LoggingMessageNotificationParams
		_ = json.Unmarshal(b, &p)
		heard <- p
	})
	setLevel(t, c, mcp.LoggingLevelDebug)
	waitFor(t, func() bool { return logs.UpstreamLevel("alpha") == "debug" })
	if got := logs.Level("alpha"); got != "warning" {
		t.Errorf("got drawer level %q, want warning untouched by the client", got)
	}

	// The server now sends debug; the client hears it, the drawer does
	// not keep it. The notification path hands each message to both.
	debug := domain.ServerNotification{Server: "alpha", Method: domain.NotifyMessage, Params: json.RawMessage(`{"level":"debug","data":"detail"}`)}
	warn := domain.ServerNotification{Server: "alpha", Method: domain.NotifyMessage, Params: json.RawMessage(`{"level":"warning","data":"careful"}`)}
	for _, n := range []domain.ServerNotification{debug, warn} {
		logs.Add(n)
	}
	var kept []string
	for _, e := range logs.Entries("alpha") {
		kept = append(kept, e.Level)
	}
	if strings.Join(kept, ",") != "warning" {
		t.Errorf("got drawer entries %v, want the warning only", kept)
	}
	// Sent until heard: the session's stream may open after the first.
	for got := false; !got; {
		feed.Publish(debug)
		select {
		case p := <-heard:
			got = p.Level == mcp.LoggingLevelDebug
		case <-time.After(50 * time.Millisecond):
		}
	}

	// The client leaves: the server goes back to the drawer's warning.
	_ = c.Close()
	waitFor(t, func() bool { return logs.UpstreamLevel("alpha") == "warning" })
	if got, want := up.calls(), "alpha=warning,alpha=debug,alpha=warning"; got != want {
		t.Errorf("got upstream calls %s, want %s", got, want)
	}
}
