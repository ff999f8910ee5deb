package mcpserver_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// answerer is an AI client's side: it answers every request it is put
// with its own name in the answer, and counts them.
type answerer struct {
	name string
	// hold, when set, runs before each elicitation is answered: the
	// test's chance to act while the client is being asked.
	hold func(n int)

	mu      sync.Mutex // guards the fields below
	elicits []mcp.ElicitationParams
	samples int
	roots   int
}

func (a *answerer) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.mu.Lock()
	a.elicits = append(a.elicits, req.Params)
	n := len(a.elicits)
	a.mu.Unlock()
	if a.hold != nil {
		a.hold(n)
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true, "by": a.name, "n": n}}}, nil
}

func (a *answerer) CreateMessage(_ context.Context, _ mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	a.mu.Lock()
	a.samples++
	a.mu.Unlock()
	return &mcp.CreateMessageResult{Model: "model-of-" + a.name, StopReason: "endTurn",
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("hi from " + a.name)}}, nil
}

func (a *answerer) ListRoots(_ context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	a.mu.Lock()
	a.roots++
	a.mu.Unlock()
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///work/" + a.name, Name: a.name}}}, nil
}

// dialAnswering connects an mcp-go client as token to url. With a, it
// answers elicitation, sampling and roots; a legacy client keeps its GET
// stream open, which sampling and roots/list travel on. hc, when set,
// carries its HTTP.
func dialAnswering(t *testing.T, url, token string, legacy bool, a *answerer, hc *http.Client) *client.Client {
	t.Helper()
	topts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(map[string]string{"X-Token": token})}
	if hc != nil {
		topts = append(topts, transport.WithHTTPBasicClient(hc))
	}
	var copts []client.ClientOption
	if legacy {
		topts = append(topts, transport.WithContinuousListening())
		copts = append(copts, client.WithProtocolVersion(legacyVersion))
	}
	name := "plain"
	if a != nil {
		name = a.name
		copts = append(copts, client.WithElicitationHandler(a), client.WithSamplingHandler(a), client.WithRootsHandler(a))
	}
	tr, err := transport.NewStreamableHTTP(url, topts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, copts...)
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	if got := c.ProtocolVersion() == "2026-07-28"; got == legacy {
		t.Fatalf("%s negotiated %q", name, c.ProtocolVersion())
	}
	return c
}
