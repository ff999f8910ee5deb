package mcpserver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// updates dials path with a GET stream open and returns the URIs of the
// resource updates it hears.
func (f *fixture) updates(t *testing.T, path string) (*client.Client, <-chan string) {
	t.Helper()
	c := f.dial(t, path, true, transport.WithContinuousListening())
	heard := make(chan string, 64)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationResourceUpdated {
			uri, _ := n.Params.AdditionalFields["uri"].(string)
			heard <- uri
		}
	})
	return c, heard
}

func subscribe(t *testing.T, c *client.Client, uri string, on bool) {
	t.Helper()
	var err error
	if on {
		req := mcp.SubscribeRequest{}
		req.Params.URI = uri
		err = c.Subscribe(t.Context(), req)
	} else {
		req := mcp.UnsubscribeRequest{}
		req.Params.URI = uri
		err = c.Unsubscribe(t.Context(), req)
	}
	if err != nil {
		t.Fatalf("subscribe %s (%v): %v", uri, on, err)
	}
}

// awaitLog waits for a log message containing want and returns how many
// messages containing count arrived up to and including it.
func awaitLog(t *testing.T, heard <-chan mcp.LoggingMessageNotificationParams, want, count string) int {
	t.Helper()
	n := 0
	deadline := time.After(patience)
	for {
		select {
		case p := <-heard:
			s, _ := p.Data.(string)
			if strings.Contains(s, count) {
				n++
			}
			if strings.Contains(s, want) {
				return n
			}
		case <-deadline:
			t.Fatalf("no log message containing %q arrived", want)
		}
	}
}

// TestSubscriptionsAreSharedUpstream: two clients of /mcp/everything
// subscribe to one resource; the server is asked once, keeps sending
// updates while either client is subscribed, and is told to stop only
// when both have unsubscribed. Only subscribed clients hear updates.
// server-everything acknowledges each subscribe and unsubscribe with a
// log message, which a third client listens to.
func TestSubscriptionsAreSharedUpstream(t *testing.T) {
	f := realFixture(t, everythingStdio(t))
	logs := f.logListener(t, "/mcp/everything", mcp.LoggingLevelDebug)
	a, aHeard := f.updates(t, "/mcp/everything")
	b, bHeard := f.updates(t, "/mcp/everything")
	res, err := a.ListResources(t.Context(), mcp.ListResourcesRequest{})
	if err != nil || len(res.Resources) == 0 {
		t.Fatalf("resources: %v, %v", res, err)
	}
	uri := res.Resources[0].URI

	subscribe(t, a, uri, true)
	awaitLog(t, logs, "Received Subscribe Resource request for URI: "+uri, "Received Subscribe")
	subscribe(t, b, uri, true)
	subscribe(t, a, uri, false)

	// Updates start at once for what the server's session is subscribed
	// to: b's subscription must still hold upstream.
	if text, isErr := callText(t, b, "toggle-subscriber-updates", nil); isErr {
		t.Fatalf("toggle: %s", text)
	}
	select {
	case got := <-bHeard:
		if got != uri {
			t.Errorf("update for %q, want %q", got, uri)
		}
	case <-time.After(patience):
		t.Fatal("the subscribed client heard no update")
	}
	if text, isErr := callText(t, b, "toggle-subscriber-updates", nil); isErr {
		t.Fatalf("toggle off: %s", text)
	}

	subscribe(t, b, uri, false)
	if n := awaitLog(t, logs, "Received Unsubscribe Resource request: "+uri, "Received Subscribe"); n != 0 {
		t.Errorf("the server was asked to subscribe %d more times, want once in all", n)
	}
	select {
	case got := <-aHeard:
		t.Errorf("the unsubscribed client heard an update for %q", got)
	default:
	}
}
