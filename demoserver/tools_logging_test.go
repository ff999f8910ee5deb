package demoserver_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestLogMessageFollowsTheClientsLevel(t *testing.T) {
	c := newClient(t)
	got := make(chan mcp.JSONRPCNotification, 4)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationMessage) {
			got <- n
		}
	})

	res := callTool(t, c, "log_message", map[string]any{"message": "disk almost full"})
	if text := resultText(res); !strings.HasPrefix(text, "Not sent") {
		t.Errorf("got %q before any setLevel, want a warning held back (error or nothing until the client asks)", text)
	}

	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	if err := c.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelInfo}}); err != nil {
		t.Fatalf("SetLevel: %v", err)
	}
	res = callTool(t, c, "log_message", map[string]any{"message": "disk almost full", "level": "notice", "logger": "disk"})
	if text := resultText(res); !strings.HasPrefix(text, "Sent") {
		t.Fatalf("got %q at level info, want it sent", text)
	}
	select {
	case n := <-got:
		p := n.Params.AdditionalFields
		// In process the values keep their Go types (mcp.LoggingLevel).
		if fmt.Sprint(p["level"]) != "notice" || fmt.Sprint(p["logger"]) != "disk" || fmt.Sprint(p["data"]) != "disk almost full" {
			t.Errorf("got params %v, want notice from disk with the message as data", p)
		}
	case <-time.After(requestTimeout):
		t.Fatal("no log message arrived")
	}

	if res := callTool(t, c, "log_message", map[string]any{"message": "x", "level": "loud"}); !res.IsError {
		t.Errorf("got %+v for an unknown level, want a tool error", res)
	}
}
