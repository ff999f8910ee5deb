package mcpserver_test

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/demoserver"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// listener is a 2026-07-28 client's subscriptions/listen stream: the
// resource subscriptions the gateway acknowledged, and the updates it
// delivers with the stream's subscription ID.
type listener struct {
	acked   []string
	updates <-chan string
	stop    func()
}

// listen dials path as a 2026-07-28 client and opens a listen stream for
// uris, returning once the gateway has acknowledged it.
func (f *fixture) listen(t *testing.T, path string, uris ...string) *listener {
	t.Helper()
	c := f.dial(t, path, false)
	if c.ProtocolVersion() != mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %q, want %s", c.ProtocolVersion(), mcp.ProtocolVersion20260728)
	}
	acks := make(chan []string, 1)
	updates := make(chan string, 64)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		switch n.Method {
		case mcp.MethodNotificationSubscriptionsAcknowledged:
			var got []string
			if filter, ok := n.Params.AdditionalFields["notifications"].(map[string]any); ok {
				subs, _ := filter["resourceSubscriptions"].([]any)
				for _, s := range subs {
					got = append(got, s.(string))
				}
			}
			acks <- got
		case mcp.MethodNotificationResourceUpdated:
			if n.Params.Meta[mcp.MetaKeySubscriptionID] == nil {
				t.Errorf("an update without the stream's subscription ID: %+v", n.Params)
			}
			uri, _ := n.Params.AdditionalFields["uri"].(string)
			updates <- uri
		}
	})
	stop, err := c.ListenAsync(t.Context(), mcp.SubscriptionFilter{ResourceSubscriptions: uris}, func(err error) { t.Errorf("listen: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	select {
	case got := <-acks:
		return &listener{acked: got, updates: updates, stop: stop}
	case <-time.After(patience):
		t.Fatal("the listen stream was not acknowledged")
		return nil
	}
}

func awaitUpdate(t *testing.T, heard <-chan string, uri string) {
	t.Helper()
	select {
	case got := <-heard:
		if got != uri {
			t.Errorf("update for %q, want %q", got, uri)
		}
	case <-time.After(patience):
		t.Fatalf("no update for %s arrived", uri)
	}
}

func firstResource(t *testing.T, c *client.Client) string {
	t.Helper()
	res, err := c.ListResources(t.Context(), mcp.ListResourcesRequest{})
	if err != nil || len(res.Resources) == 0 {
		t.Fatalf("resources: %v, %v", res, err)
	}
	return res.Resources[0].URI
}

func toggleUpdates(t *testing.T, c *client.Client) {
	t.Helper()
	if text, isErr := callText(t, c, "toggle-subscriber-updates", nil); isErr {
		t.Fatalf("toggle-subscriber-updates: %s", text)
	}
}

// TestModernListenStreamHearsResourceUpdates: a 2026-07-28 client of /mcp
// names a server-everything resource (and one nobody offers) in its
// subscriptions/listen filter. The gateway acknowledges only the real one,
// shares the upstream subscription a legacy session already holds (the
// server is asked once), delivers the server's updates on the stream, and
// lets go of its hold when the stream closes, leaving the legacy
// session's subscription in place upstream.
func TestModernListenStreamHearsResourceUpdates(t *testing.T) {
	f := realFixture(t, everythingStdio(t))
	logs := f.logListener(t, "/mcp/everything", mcp.LoggingLevelDebug)
	legacy, legacyHeard := f.updates(t, "/mcp/everything")
	uri := firstResource(t, legacy)
	subscribe(t, legacy, uri, true)
	awaitLog(t, logs, "Received Subscribe Resource request for URI: "+uri, "Received Subscribe")

	l := f.listen(t, "/mcp", uri, "mem://nobody/offers-this")
	if !slices.Equal(l.acked, []string{uri}) {
		t.Errorf("acknowledged %q, want only %q", l.acked, uri)
	}
	if n := mcpserver.UpstreamHolds(f.gateway, "everything", uri); n != 2 {
		t.Errorf("%d holds upstream, want 2 (the session and the stream)", n)
	}
	toggleUpdates(t, legacy)
	awaitUpdate(t, l.updates, uri)
	awaitUpdate(t, legacyHeard, uri)
	toggleUpdates(t, legacy)

	l.stop()
	waitFor(t, func() bool { return mcpserver.UpstreamHolds(f.gateway, "everything", uri) == 1 })
	subscribe(t, legacy, uri, false)
	if n := awaitLog(t, logs, "Received Unsubscribe Resource request: "+uri, "Received Subscribe"); n != 0 {
		t.Errorf("the server was asked to subscribe %d more times, want once in all", n)
	}
}

// TestSubscribeIsOfferedOnlyWhereItWorks: with server-everything (which
// offers resource subscriptions) and the demo server (which does not)
// connected, /mcp and /mcp/everything advertise resources.subscribe and
// /mcp/demo does not, in both eras. A legacy subscribe to a demo resource
// is refused with a JSON-RPC error that says why, and a listen stream
// naming one is acknowledged without it.
func TestSubscribeIsOfferedOnlyWhereItWorks(t *testing.T) {
	demo := httptest.NewServer(server.NewStreamableHTTPServer(demoserver.New(demoserver.Options{})))
	t.Cleanup(demo.Close)
	f := realFixture(t, everythingStdio(t), domain.ServerConfig{Name: "demo", Transport: domain.TransportHTTP,
		URL: demo.URL + "/mcp", AutoReconnect: true, ConnectTimeout: time.Minute})

	for _, path := range []string{"/mcp", "/mcp/everything", "/mcp/demo"} {
		for _, legacy := range []bool{true, false} {
			caps := f.dial(t, path, legacy).GetServerCapabilities()
			if caps.Resources == nil {
				t.Fatalf("%s (legacy %v): no resources capability", path, legacy)
			}
			if got, want := caps.Resources.Subscribe, path != "/mcp/demo"; got != want {
				t.Errorf("%s (legacy %v): resources.subscribe %v, want %v", path, legacy, got, want)
			}
		}
	}

	const demoURI = "demo://readme"
	for _, path := range []string{"/mcp", "/mcp/demo"} {
		c := f.dial(t, path, true)
		req := mcp.SubscribeRequest{}
		req.Params.URI = demoURI
		err := c.Subscribe(t.Context(), req)
		if err == nil || !strings.Contains(err.Error(), `server "demo" does not support resource subscriptions`) {
			t.Errorf("%s: subscribe to %s: %v, want a refusal naming the server", path, demoURI, err)
		}
	}
	if n := mcpserver.UpstreamHolds(f.gateway, "demo", demoURI); n != 0 {
		t.Errorf("%d holds on a demo resource, want none", n)
	}

	everythingURI := firstResource(t, f.dial(t, "/mcp/everything", true))
	l := f.listen(t, "/mcp", demoURI, everythingURI)
	if !slices.Equal(l.acked, []string{everythingURI}) {
		t.Errorf("acknowledged %q, want only %q", l.acked, everythingURI)
	}
}

// TestSubscriptionsAreRenewedAfterReconnect: server-everything restarts (a
// new process, a new upstream session with no subscriptions); the gateway
// subscribes again to what a legacy session and a 2026-07-28 listen
// stream still hold, and both hear the new process's updates.
func TestSubscriptionsAreRenewedAfterReconnect(t *testing.T) {
	f := realFixture(t, everythingStdio(t))
	logs := f.logListener(t, "/mcp/everything", mcp.LoggingLevelDebug)
	legacy, legacyHeard := f.updates(t, "/mcp/everything")
	uri := firstResource(t, legacy)
	subscribe(t, legacy, uri, true)
	awaitLog(t, logs, "Received Subscribe Resource request for URI: "+uri, "Received Subscribe")
	l := f.listen(t, "/mcp/everything", uri)

	before, err := f.fleet.Status("everything")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.fleet.Restart(t.Context(), "everything"); err != nil {
		t.Fatalf("restart: %v", err)
	}
	waitFor(t, func() bool {
		st, err := f.fleet.Status("everything")
		return err == nil && st.State == domain.StateConnected && st.Version > before.Version
	})
	// Once: one upstream subscription however many clients hold it.
	if n := awaitLog(t, logs, "Received Subscribe Resource request for URI: "+uri, "Received Subscribe"); n != 1 {
		t.Errorf("the new process was asked to subscribe %d times, want once", n)
	}
	toggleUpdates(t, legacy)
	awaitUpdate(t, legacyHeard, uri)
	awaitUpdate(t, l.updates, uri)
	toggleUpdates(t, legacy)
}
