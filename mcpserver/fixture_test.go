package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/mcpserver"
)

// patience bounds waits for what should happen promptly; it never paces a
// passing test.
const patience = 10 * time.Second

// legacyVersion is the newest protocol version with initialize sessions.
const legacyVersion = "2025-11-25"

var scope = domain.Scope{User: domain.LocalUser, Workspace: "test"}

// fixture is a real fleet driven through fakes, the real invocation
// service, and the gateway behind a real HTTP listener.
type fixture struct {
	fleet *domain.Fleet
	conn  *domaintest.Connector
	clock *domaintest.Clock // the gateway's: debounce
	// fleetClock is the fleet's: retries, attempt limits, and how long a
	// gateway call waits for a reconnecting server.
	fleetClock *domaintest.Clock
	store      *domaintest.InvocationStore
	inv        *domain.Invocations
	gateway    *mcpserver.Gateway
	srv        *httptest.Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWith(t, nil)
}

// newFixtureWith is newFixture with the invocation service's options
// adjusted by tune (policies, the approval hold).
func newFixtureWith(t *testing.T, tune func(*domain.InvocationsOptions)) *fixture {
	t.Helper()
	f := &fixture{
		conn:       domaintest.NewConnector(),
		clock:      domaintest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)),
		store:      domaintest.NewInvocationStore(),
		fleetClock: domaintest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)),
	}
	f.fleet = domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: f.conn, Store: domaintest.NewStore(), Scope: scope,
		Clock: f.fleetClock, Rand: func() float64 { return 0 },
	}})
	invOpts := domain.InvocationsOptions{Caller: f.fleet, Catalog: f.fleet, Store: f.store}
	if tune != nil {
		tune(&invOpts)
	}
	f.inv = domain.NewInvocations(invOpts)
	f.gateway = mcpserver.New(mcpserver.Options{Fleet: f.fleet, Invocations: f.inv, Scope: scope, Clock: f.clock, Version: "test"})
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
	f.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		f.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		_ = f.inv.Close(ctx)
		if err := f.fleet.Close(ctx); err != nil {
			t.Errorf("close fleet: %v", err)
		}
	})
	return f
}

// connect attaches a server and completes its handshake with caps, then
// refreshes the gateway's lists.
func (f *fixture) connect(t *testing.T, name string, caps domain.Capabilities) *domaintest.Session {
	t.Helper()
	cfg := domain.ServerConfig{Name: name, Transport: domain.TransportStdio, Command: "true", AutoReconnect: true, ConnectTimeout: time.Minute}
	if err := f.fleet.Attach(t.Context(), []domain.ServerConfig{cfg}); err != nil {
		t.Fatalf("attach: %v", err)
	}
	sess := domaintest.NewSession(caps)
	f.conn.Next(t).Succeed(sess)
	waitFor(t, func() bool {
		st, err := f.fleet.Status(name)
		return err == nil && st.State == domain.StateConnected
	})
	f.gateway.Refresh()
	return sess
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// dial connects mcp-go's own client to path: legacy pins 2025-11-25 (the
// initialize session); otherwise the client prefers 2026-07-28.
func (f *fixture) dial(t *testing.T, path string, legacy bool, topts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(f.srv.URL+path, topts...)
	if err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	if legacy {
		opts = append(opts, client.WithProtocolVersion(legacyVersion))
	}
	c := client.NewClient(tr, opts...)
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "test-client", Version: "1.2.3"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatalf("initialize %s: %v", path, err)
	}
	return c
}

func toolNames(t *testing.T, c *client.Client) []string {
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

func callText(t *testing.T, c *client.Client, name string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// echoCaps lists an echo tool with a schema mcp.Tool would trim, a tool
// only this server has, a prompt, a resource and a template.
func echoCaps(server string) domain.Capabilities {
	schema := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","description":"echo input","properties":{"message":{"type":"string"}},"anyOf":[{"required":["message"]}]}`
	return domain.Capabilities{
		Tools: []domain.Tool{
			{Name: "echo", InputSchema: []byte(schema), Raw: []byte(`{"name":"echo","description":"Echoes","inputSchema":` + schema + `,"annotations":{"readOnlyHint":true}}`)},
			{Name: "only." + server, Raw: []byte(`{"name":"only.` + server + `","inputSchema":{"type":"object"}}`)},
		},
		Prompts:           []domain.Prompt{{Name: "greet", Arguments: []domain.PromptArgument{{Name: "who", Required: true}}}},
		Resources:         []domain.Resource{{URI: "mem://" + server + "/a", Name: "a"}, {URI: "mem://shared", Name: "shared"}},
		ResourceTemplates: []domain.ResourceTemplate{{URITemplate: "mem://" + server + "/items/{id}", Name: "item"}},
	}
}

// echoing answers every call with its arguments, a content item carrying
// a field mcp-go does not model, and structured content.
func echoing(server string) domaintest.CallHandler {
	return func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		var a struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(args, &a)
		if progress != nil {
			progress(domain.Progress{Progress: 1, Total: 2, Message: "half"})
		}
		text, _ := json.Marshal(server + ":" + tool + ":" + a.Message)
		return json.RawMessage(`{"content":[{"type":"text","text":` + string(text) + `,"x-extra":{"kept":true},"_meta":{"n":12345678901234567890}}],"structuredContent":{"big":12345678901234567890},"_meta":{"m":1}}`), nil
	}
}
