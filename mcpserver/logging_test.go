package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// withMessages replaces f's gateway with one that passes on the log
// messages of feed, running until the test ends.
func (f *fixture) withMessages(t *testing.T, feed *domain.ServerNotifications) {
	t.Helper()
	f.withOptions(t, mcpserver.Options{Fleet: f.fleet, Invocations: f.inv, Scope: scope, Clock: f.clock, Version: "test", Notifications: feed})
}

// withOptions replaces f's gateway with one made with opts, served as the
// command serves it and running until the test ends.
func (f *fixture) withOptions(t *testing.T, opts mcpserver.Options) {
	t.Helper()
	f.gateway = mcpserver.New(opts)
	mux := http.NewServeMux()
	mux.Handle("/mcp", f.gateway.Aggregated())
	mux.HandleFunc("/mcp/{server}", func(w http.ResponseWriter, r *http.Request) {
		h, ok := f.gateway.Server(r.PathValue("server"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
	f.srv.Close()
	f.srv = httptest.NewServer(mux)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f.gateway.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; f.gateway.Close(context.Background()) })
}

// logListener dials path with a GET stream open, sets level, and returns
// the log messages it hears.
func (f *fixture) logListener(t *testing.T, path string, level mcp.LoggingLevel) <-chan mcp.LoggingMessageNotificationParams {
	t.Helper()
	c := f.dial(t, path, true, transport.WithContinuousListening())
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
	setLevel(t, c, level)
	return heard
}

func setLevel(t *testing.T, c *client.Client, level mcp.LoggingLevel) {
	t.Helper()
	req := mcp.SetLevelRequest{}
	req.Params.Level = level
	if err := c.SetLevel(t.Context(), req); err != nil {
		t.Fatalf("set level %s: %v", level, err)
	}
}

// next returns the next log message heard, passing over the probes a test
// published to learn that its listeners listen: those may still be on
// their way on a loaded machine, however long the test waited for quiet.
func next(t *testing.T, heard <-chan mcp.LoggingMessageNotificationParams) mcp.LoggingMessageNotificationParams {
	t.Helper()
	for {
		select {
		case p := <-heard:
			if p.Data == "probe" {
				continue
			}
			return p
		case <-time.After(patience):
			t.Fatal("no log message arrived")
			return mcp.LoggingMessageNotificationParams{}
		}
	}
}

// TestLogMessagesReachListenersAtTheirLevels: each session hears a
// server's log messages at or above the level it set, on the server's own
// endpoint as sent and on /mcp with the server's name leading the logger.
func TestLogMessagesReachListenersAtTheirLevels(t *testing.T) {
	f := newFixture(t)
	feed := domain.NewServerNotifications()
	f.withMessages(t, feed)
	f.connect(t, "alpha", echoCaps("alpha"))
	f.connect(t, "beta", echoCaps("beta"))

	detailed := f.logListener(t, "/mcp/alpha", mcp.LoggingLevelDebug)
	terse := f.logListener(t, "/mcp/alpha", mcp.LoggingLevelError)
	aggregated := f.logListener(t, "/mcp", mcp.LoggingLevelInfo)
	other := f.logListener(t, "/mcp/beta", mcp.LoggingLevelDebug)

	// A GET stream opens after initialize; a message published before it
	// is listening would be lost, so publish until the first one arrives.
	probe := domain.ServerNotification{Server: "alpha", Method: domain.NotifyMessage, Params: json.RawMessage(`{"level":"emergency","data":"probe"}`)}
	for _, heard := range []<-chan mcp.LoggingMessageNotificationParams{detailed, terse, aggregated} {
		deadline := time.Now().Add(patience)
		for got := false; !got; {
			if time.Now().After(deadline) {
				t.Fatal("no listener is listening")
			}
			feed.Publish(probe)
			select {
			case <-heard:
				got = true
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	drain := func(ch <-chan mcp.LoggingMessageNotificationParams) {
		for {
			select {
			case <-ch:
			case <-time.After(100 * time.Millisecond):
				return
			}
		}
	}
	drain(detailed)
	drain(terse)
	drain(aggregated)

	feed.Publish(domain.ServerNotification{Server: "alpha", Method: domain.NotifyMessage, Params: json.RawMessage(`{"level":"debug","logger":"db","data":{"big":12345678901234567890}}`)})
	feed.Publish(domain.ServerNotification{Server: "alpha", Method: domain.NotifyMessage, Params: json.RawMessage(`{"level":"error","logger":"db","data":"boom"}`)})

	if p := next(t, detailed); p.Level != mcp.LoggingLevelDebug || p.Logger != "db" {
		t.Errorf("detailed listener: got %+v, want the debug message from db", p)
	}
	if p := next(t, detailed); p.Level != mcp.LoggingLevelError {
		t.Errorf("detailed listener: got %+v, want the error message", p)
	}
	if p := next(t, terse); p.Level != mcp.LoggingLevelError || p.Data != "boom" {
		t.Errorf("error-level listener: got %+v, want only the error message", p)
	}
	if p := next(t, aggregated); p.Level != mcp.LoggingLevelError || p.Logger != "alpha/db" {
		t.Errorf("aggregated listener: got %+v, want the error message with logger alpha/db", p)
	}
	select {
	case p := <-other:
		t.Errorf("beta's listener heard alpha's message %+v", p)
	case <-time.After(100 * time.Millisecond):
	}
}
