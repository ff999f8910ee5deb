package mcpclient_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/demoserver"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// A 2026-07-28 server's sampling request in an input_required result that
// nobody can answer (a call made in Switchboard, which has no model)
// declines the call, which the call's card shows as its error, in the
// words a handshake-era server hears in its JSON-RPC error (and the demo
// server there reports as its tool error); the session stays up.
func TestSamplingNobodyCanAnswerIsDeclinedInEitherEra(t *testing.T) {
	t.Parallel()
	const why = "nobody could be asked: Switchboard has no language model to answer sampling/createMessage"
	for _, version := range []string{mcp.ProtocolVersion20260728, mcp.ProtocolVersion20251125} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			l := serveMethodLog(t, demoserver.New(demoserver.Options{}))
			scope := domain.Scope{User: domain.LocalUser, Workspace: "test"}
			fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
				Connector: mcpclient.New(mcpclient.Options{ProtocolVersion: version}), Store: domaintest.NewStore(), Scope: scope}})
			inv := domain.NewInvocations(domain.InvocationsOptions{Caller: fleet, Catalog: fleet, Store: domaintest.NewInvocationStore()})
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
				defer cancel()
				_ = inv.Close(ctx)
				if err := fleet.Close(ctx); err != nil {
					t.Errorf("close fleet: %v", err)
				}
			})
			cfg := remote(domain.TransportHTTP, l.url)
			cfg.Name, cfg.ConnectTimeout = "demo", connectTimeout
			if err := fleet.Attach(connectCtx(t), []domain.ServerConfig{cfg}); err != nil {
				t.Fatal(err)
			}
			connected := func() bool {
				st, err := fleet.Status("demo")
				return err == nil && st.State == domain.StateConnected && st.ProtocolVersion == version
			}
			waitFor(t, "the demo server connected with "+version, connected)

			card, err := inv.Call(connectCtx(t), domain.CallRequest{Scope: scope, Server: "demo", Tool: "ask_model",
				Arguments: json.RawMessage(`{"question":"Why?"}`)})
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if card.Status != domain.InvocationError {
				t.Errorf("card status %s, want %s", card.Status, domain.InvocationError)
			}
			if version == mcp.ProtocolVersion20260728 {
				if want := "call ask_model on demo: declined: " + why; !strings.HasPrefix(card.Error, want) {
					t.Errorf("card error %q, want it to start %q", card.Error, want)
				}
			} else if !strings.Contains(string(card.Result), why) {
				t.Errorf("card result %s, want the server's tool error quoting %q", card.Result, why)
			}
			if len(card.Asks) != 1 || card.Asks[0].Method != domain.MethodSample || card.Asks[0].Outcome != domain.AskNotAsked {
				t.Errorf("card asks %+v, want one sampling request not asked", card.Asks)
			}
			if !connected() {
				t.Error("the server is no longer connected after the declined call")
			}
		})
	}
}
