package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

func TestProgressReachesTheClient(t *testing.T) {
	f := newFixture(t)
	// The tool holds its answer until the client has seen its progress, so
	// the notification never races the result for the call's stream.
	release := make(chan struct{})
	f.connect(t, "alpha", echoCaps("alpha")).OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		if progress != nil {
			progress(domain.Progress{Progress: 1, Total: 2, Message: "half"})
		}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return echoing("alpha")(ctx, tool, args, nil)
	})
	c := f.dial(t, "/mcp", true, transport.WithContinuousListening())
	got := make(chan mcp.JSONRPCNotification, 8)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) {
			got <- n
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "alpha__echo"
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok-1"}
	callErr := make(chan error, 1)
	go func() {
		_, err := c.CallTool(t.Context(), req)
		callErr <- err
	}()
	select {
	case n := <-got:
		if tok := n.Params.AdditionalFields["progressToken"]; tok != "tok-1" {
			t.Errorf("progress token: got %v, want tok-1", tok)
		}
	case <-time.After(patience):
		t.Error("no progress notification reached the client")
	}
	close(release)
	if err := <-callErr; err != nil {
		t.Fatal(err)
	}
}

func TestDisconnectedServerAnswersToolError(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha"))
	c := f.dial(t, "/mcp", true)
	if _, err := f.fleet.Restart(t.Context(), "alpha"); err != nil {
		t.Fatal(err)
	}
	f.conn.Next(t) // left unanswered: the server stays connecting
	f.gateway.Refresh()
	// Restarting after having been connected keeps the tools listed.
	if got := toolNames(t, c); !slices.Contains(got, "alpha__echo") {
		t.Fatalf("tools while reconnecting: got %v", got)
	}
	// The call waits for the server up to its start limit: armed beside
	// the supervisor's own limit of the attempt in flight.
	type outcome struct {
		text  string
		isErr bool
	}
	out := make(chan outcome, 1)
	go func() {
		text, isErr, err := callTextAsync(c, "alpha__echo", nil)
		if err != nil {
			text = err.Error()
		}
		out <- outcome{text, isErr}
	}()
	waitFor(t, func() bool {
		n := 0
		for _, d := range f.fleetClock.Timers() {
			if d == domain.DefaultStartTimeout {
				n++
			}
		}
		return n == 2
	})
	f.fleetClock.Advance(domain.DefaultStartTimeout)
	o := <-out
	if !o.isErr || !strings.Contains(o.text, `"alpha"`) || !strings.Contains(o.text, "connecting") || !strings.Contains(o.text, "try again") {
		t.Errorf("got %q isError=%v, want a tool error naming alpha, connecting and try again", o.text, o.isErr)
	}
}

func TestCallToReconnectingServerRunsOnceConnected(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha"))
	c := f.dial(t, "/mcp", true)
	if _, err := f.fleet.Restart(t.Context(), "alpha"); err != nil {
		t.Fatal(err)
	}
	attempt := f.conn.Next(t)
	f.gateway.Refresh()
	out := make(chan string, 1)
	go func() {
		text, _, err := callTextAsync(c, "alpha__echo", map[string]any{"message": "hi"})
		if err != nil {
			text = err.Error()
		}
		out <- text
	}()
	waitFor(t, func() bool {
		n := 0
		for _, d := range f.fleetClock.Timers() {
			if d == domain.DefaultStartTimeout {
				n++
			}
		}
		return n == 2
	})
	sess := domaintest.NewSession(echoCaps("alpha"))
	sess.OnCall(echoing("alpha"))
	attempt.Succeed(sess)
	if got := <-out; !strings.Contains(got, "alpha:echo:hi") {
		t.Errorf("got %q, want the reconnected server's answer", got)
	}
}

func TestModernCancelDoesNotReachOtherClients(t *testing.T) {
	f := newFixture(t)
	f.connect(t, "alpha", echoCaps("alpha"))
	body := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`
	res, err := http.Post(f.srv.URL+"/mcp", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		t.Errorf("got %d, want 202", res.StatusCode)
	}
}

// TestClientCancelEndsTheCall: a legacy client's notifications/cancelled,
// or a 2026-07-28 client dropping its request, ends the handler's context,
// which cancels the invocation.
func TestClientCancelEndsTheCall(t *testing.T) {
	for _, era := range []struct {
		name   string
		legacy bool
	}{{"legacy", true}, {"2026-07-28", false}} {
		t.Run(era.name, func(t *testing.T) {
			f := newFixture(t)
			started := make(chan struct{})
			f.connect(t, "alpha", echoCaps("alpha")).OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
				close(started)
				<-ctx.Done()
				return nil, ctx.Err()
			})
			c := f.dial(t, "/mcp", era.legacy)
			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() {
				req := mcp.CallToolRequest{}
				req.Params.Name = "alpha__echo"
				_, err := c.CallTool(ctx, req)
				errc <- err
			}()
			<-started
			cancel()
			if err := <-errc; err == nil {
				t.Fatal("cancelled call: got a result, want an error")
			}
			waitFor(t, func() bool {
				invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{})
				return err == nil && len(invs) == 1 && invs[0].Status == domain.InvocationCancelled
			})
		})
	}
}

// callTextAsync is callText for a goroutine: it reports a failed request
// instead of ending the test.
func callTextAsync(c *client.Client, name string, args map[string]any) (string, bool, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		return "", false, err
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError, nil
}
