package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// TestCancelledRetryCancelsTheCall: a 2026-07-28 client that gives up on
// its retry cancels the call, as any gateway call.
func TestCancelledRetryCancelsTheCall(t *testing.T) {
	f := newFixture(t)
	sess := f.connect(t, "up", askCaps)
	asked := make(chan struct{})
	sess.OnCall(func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
		if _, err := domain.AskerFrom(ctx).Ask(ctx, elicitReq); err != nil {
			return nil, err
		}
		close(asked)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	_, url := askGateway(t, f)
	c := dialAnswering(t, url+"/mcp/up", "t", false, &answerer{name: "quitter"}, nil)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "ask"
		_, err := c.CallTool(ctx, req)
		errc <- err
	}()
	select {
	case <-asked:
	case <-t.Context().Done():
		t.Fatal("the client was never asked")
	}
	cancel()
	<-errc
	waitFor(t, func() bool { return lastCard(t, f).Status == domain.InvocationCancelled })
}

// TestUnansweredRoundEndsWithTheCall: a 2026-07-28 client that never
// retries leaves the call waiting no longer than the call's own
// deadline; the card tells that the client did not answer.
func TestUnansweredRoundEndsWithTheCall(t *testing.T) {
	f := newFixture(t)
	cfg := domain.ServerConfig{Name: "up", Transport: domain.TransportStdio, Command: "true", ConnectTimeout: time.Minute,
		CallTimeout: 200 * time.Millisecond}
	if err := f.fleet.Attach(t.Context(), []domain.ServerConfig{cfg}); err != nil {
		t.Fatal(err)
	}
	sess := domaintest.NewSession(askCaps)
	f.conn.Next(t).Succeed(sess)
	waitFor(t, func() bool { st, err := f.fleet.Status("up"); return err == nil && st.State == domain.StateConnected })
	f.gateway.Refresh()
	sess.OnCall(func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		_, err := domain.AskerFrom(ctx).Ask(ctx, elicitReq)
		return nil, err
	})
	_, url := askGateway(t, f)
	// The client is asked and never answers: its answer waits for the
	// test's end.
	stuck := make(chan struct{})
	defer close(stuck)
	c := dialAnswering(t, url+"/mcp/up", "t", false, &answerer{name: "gone", hold: func(int) { <-stuck }}, nil)
	req := mcp.CallToolRequest{}
	req.Params.Name = "ask"
	go func() { _, _ = c.CallTool(t.Context(), req) }()
	waitFor(t, func() bool {
		invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{Tool: "ask"})
		return err == nil && len(invs) == 1 && invs[0].Status.Final()
	})
	card := lastCard(t, f)
	if card.Status != domain.InvocationError || len(card.Asks) != 1 || card.Asks[0].Outcome != domain.AskFailed ||
		!strings.Contains(card.Asks[0].Detail, `the calling client "gone 1" did not answer in time`) {
		t.Errorf("card: status %s, asks %+v; want an error whose ask the client did not answer in time", card.Status, card.Asks)
	}
}

// TestRevokedTokenEndsItsHeldCalls: a 2026-07-28 client being asked holds
// its call between rounds; revoking its token ends the call at once
// rather than at the call's deadline, since that client can never resume
// it.
func TestRevokedTokenEndsItsHeldCalls(t *testing.T) {
	f := newFixture(t)
	sess := f.connect(t, "up", askCaps)
	sess.OnCall(func(ctx context.Context, _ string, _ json.RawMessage, _ func(domain.Progress)) (json.RawMessage, error) {
		_, err := domain.AskerFrom(ctx).Ask(ctx, elicitReq)
		return nil, err
	})
	gw, url := askGateway(t, f)
	asked, stuck := make(chan struct{}), make(chan struct{})
	defer close(stuck)
	c := dialAnswering(t, url+"/mcp/up", "revoked", false, &answerer{name: "gone", hold: func(int) {
		close(asked)
		<-stuck
	}}, nil)
	req := mcp.CallToolRequest{}
	req.Params.Name = "ask"
	go func() { _, _ = c.CallTool(t.Context(), req) }()
	select {
	case <-asked:
	case <-t.Context().Done():
		t.Fatal("the client was never asked")
	}
	gw.CloseToken("revoked")
	waitFor(t, func() bool {
		invs, err := f.inv.List(t.Context(), scope, domain.InvocationFilter{Tool: "ask"})
		return err == nil && len(invs) == 1 && invs[0].Status == domain.InvocationCancelled
	})
}
