package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/jsonschema"
	"github.com/switchboard-mcp/switchboard/mcpclient"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// BenchmarkToolCall measures what Switchboard adds to a tools/call: the
// same echo call on the same demo server (a real stdio child), once with a
// bare mcp-go client and once through the supervised connection, schema
// validation, the SQLite history, the audit log and the live feed.
func BenchmarkToolCall(b *testing.B) {
	args := map[string]any{"message": "hello"}
	b.Run("direct-mcp-go", func(b *testing.B) {
		c, err := client.NewStdioMCPClient(binary, nil, "demo-server")
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		ctx := context.Background()
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
		init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
		if _, err := c.Initialize(ctx, init); err != nil {
			b.Fatal(err)
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = "echo"
		req.Params.Arguments = args
		for b.Loop() {
			if _, err := c.CallTool(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("switchboard", func(b *testing.B) {
		ctx := context.Background()
		db, err := sqlite.Open(ctx, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		scope := domain.Scope{User: domain.LocalUser, Workspace: "bench"}
		fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
			Connector: mcpclient.New(mcpclient.Options{}), Scope: scope}})
		defer fleet.Close(ctx)
		sub := fleet.Hub().Subscribe()
		defer sub.Close()
		if err := fleet.Attach(ctx, []domain.ServerConfig{{Name: "demo", Transport: domain.TransportStdio, Command: binary,
			Args: []string{"demo-server"}, AutoReconnect: true, ConnectTimeout: 30 * time.Second}}); err != nil {
			b.Fatal(err)
		}
		waitConnected(b, sub)
		svc := domain.NewInvocations(domain.InvocationsOptions{Caller: fleet, Catalog: fleet, Store: db.InvocationStore(),
			Validator: jsonschema.New()})
		feed := svc.Feed().Subscribe(scope)
		defer feed.Close()
		raw, _ := json.Marshal(args)
		for b.Loop() {
			inv, err := svc.Start(ctx, domain.CallRequest{Scope: scope, Server: "demo", Tool: "echo", Arguments: raw})
			if err != nil {
				b.Fatal(err)
			}
			waitFinal(b, feed, inv.ID)
		}
	})
}

func waitConnected(b *testing.B, sub *domain.Subscription) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		batch, err := sub.Next(ctx)
		if err != nil {
			b.Fatal("demo server never connected")
		}
		for _, s := range batch {
			if s.State == domain.StateConnected {
				return
			}
		}
	}
}

func waitFinal(b *testing.B, feed *domain.InvocationSubscription, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		batch, err := feed.Next(ctx)
		if err != nil {
			b.Fatalf("invocation %s never finished", id)
		}
		for _, inv := range batch {
			if inv.ID == id && inv.Status.Final() {
				if inv.Status != domain.InvocationSuccess {
					b.Fatalf("invocation %s: %s %s", id, inv.Status, inv.Error)
				}
				return
			}
		}
	}
}
