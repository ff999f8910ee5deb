package handlers_test

import (
	"context"
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
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// TestHidingAToolTellsConnectedClients: a policy set to hidden through the
// API takes the tool off /mcp at once, and a client listening for changes
// hears tools/list_changed, with no status change to prompt it.
func TestHidingAToolTellsConnectedClients(t *testing.T) {
	var svc *domain.Invocations
	f := newFixture(t, func(o *handlers.Options) {
		o.Scope = testScope
		policies := domain.NewPolicies(domaintest.NewPolicyStore())
		svc = domain.NewInvocations(domain.InvocationsOptions{Caller: o.Fleet, Catalog: o.Fleet,
			Store: domaintest.NewInvocationStore(), Policies: policies})
		o.Invocations = svc
		o.Gateway = mcpserver.New(mcpserver.Options{Fleet: o.Fleet, Invocations: svc, Scope: testScope,
			Policies: policies, Version: "test"})
	})
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	f.connect(t, stdio("files"), filesCaps())
	pf := &policyFixture{fixture: f, svc: svc}
	// The fixture's connect publishes a status; the gateway (not Run here)
	// takes the lists in when told to, as after any policy change.
	pf.send(t, http.MethodPut, toolPolicyPath("files", "read_file"), `{"policy":"allow"}`)

	tr, err := transport.NewStreamableHTTP(f.srv.URL+handlers.PathMCP,
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + fixtureToken}))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "test-client", Version: "1"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	heard := make(chan string, 16)
	c.OnNotification(func(n mcp.JSONRPCNotification) { heard <- n.Method })
	stop, err := c.ListenAsync(t.Context(), mcp.SubscriptionFilter{ToolsListChanged: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	awaitMethod(t, heard, mcp.MethodNotificationSubscriptionsAcknowledged)
	if got := listToolNames(t, c); !slices.Contains(got, "files__read_file") {
		t.Fatalf("tools before hiding: got %v, want files__read_file", got)
	}

	if status, body := pf.send(t, http.MethodPut, toolPolicyPath("files", "read_file"), `{"policy":"hidden"}`); status != http.StatusOK {
		t.Fatalf("PUT hidden: got %d %s", status, body)
	}
	awaitMethod(t, heard, string(mcp.MethodNotificationToolsListChanged))
	if got := listToolNames(t, c); slices.Contains(got, "files__read_file") || !slices.Contains(got, "files__delete_file") {
		t.Errorf("tools after hiding read_file: got %v", got)
	}

	// The drawer names the server's tools as /mcp lists them.
	r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "files"), nil, "en")
	names := r.doc.Find(`[data-testid="drawer-gateway-names"]`)
	if names.AttrOr("data-exposed", "") != "true" || !strings.Contains(names.Text(), "files__delete_file") {
		t.Errorf("drawer's names on /mcp: got %q", names.Text())
	}
}

func listToolNames(t *testing.T, c *client.Client) []string {
	t.Helper()
	res, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

func awaitMethod(t *testing.T, heard <-chan string, method string) {
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
