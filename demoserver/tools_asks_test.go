package demoserver_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/demoserver"
)

// askingClient answers the demo server's requests the way a test wants.
type askingClient struct {
	elicited mcp.ElicitationRequest
	sampled  mcp.CreateMessageRequest
	refuse   bool
}

func (a *askingClient) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.elicited = req
	if a.refuse {
		return nil, errors.New("the user is away")
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true, "reason": "ready"}}}, nil
}

func (a *askingClient) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	a.sampled = req
	return &mcp.CreateMessageResult{Model: "test-model",
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("42")}}, nil
}

func (a *askingClient) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///work", Name: "work"}}}, nil
}

func newAskingClient(t *testing.T, a *askingClient) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClientWithOptions(demoserver.New(demoserver.Options{}),
		client.WithElicitationHandler(a), client.WithSamplingHandler(a), client.WithRootsHandler(a))
	if err != nil {
		t.Fatalf("NewInProcessClientWithOptions: %v", err)
	}
	initialize(t, c)
	return c
}

func resultText(res *mcp.CallToolResult) string {
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// Each asking tool sends its request while it runs and reports the answer.
func TestAskToolsReportTheClientsAnswer(t *testing.T) {
	a := &askingClient{}
	c := newAskingClient(t, a)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"confirm_action", map[string]any{"action": "ship it"}, `"content":{"confirm":true,"reason":"ready"}`},
		{"ask_model", map[string]any{"question": "Six times seven?"}, `"model":"test-model"`},
		{"list_roots", nil, `{"roots":[{"uri":"file:///work","name":"work"}]}`},
	}
	for _, tt := range tests {
		res := callTool(t, c, tt.tool, tt.args)
		if got := resultText(res); res.IsError || !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %q (error %v), want %s in it", tt.tool, got, res.IsError, tt.want)
		}
	}
	if got, want := a.elicited.Params.Message, "Go ahead and ship it?"; got != want {
		t.Errorf("elicitation message: got %q, want %q", got, want)
	}
	if got := a.sampled.Messages; len(got) != 1 || got[0].Content.(mcp.TextContent).Text != "Six times seven?" {
		t.Errorf("sampling messages: got %+v, want the question", got)
	}
}

// A client's refusal comes back as a tool error that quotes it.
func TestAskToolsReportARefusal(t *testing.T) {
	c := newAskingClient(t, &askingClient{refuse: true})
	res := callTool(t, c, "confirm_action", nil)
	if got := resultText(res); !res.IsError || !strings.Contains(got, "the user is away") {
		t.Errorf("got %q (error %v), want a tool error quoting the refusal", got, res.IsError)
	}
}
