package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// errNoServer is a handler run outside an MCP server, which has nobody to
// send a request to.
var errNoServer = errors.New("no MCP server in the request context")

// askedLocal describes a tool that only asks its client something and
// reports the answer: it changes nothing, but the answer may differ each
// time.
var askedLocal = behaviour{readOnly: true}

// addAskTools registers the tools that send their client a request while
// they run (elicitation, sampling, roots), so that a client, or the
// gateway in front of this server, can show where such requests go. A
// client of the handshake era gets the request itself; a 2026-07-28
// client, to which a server may send no requests, gets it as an
// input_required result and calls again with the answer.
func addAskTools(s *server.MCPServer) {
	s.AddTool(newTool("confirm_action", "Confirm an action",
		"Asks the client's user, through an elicitation form, whether to go ahead with an action and why, then reports exactly what came back. "+
			"Nothing is done either way. Needs a client that supports elicitation.",
		askedLocal,
		mcp.WithString("action", mcp.Description("What the user is asked to confirm."), mcp.DefaultString("delete the draft"))),
		confirmAction)
	s.AddTool(newTool("ask_model", "Ask the client's model",
		"Asks the client's language model (sampling) to answer a question and reports the message it returned. Needs a client that supports sampling.",
		askedLocal,
		mcp.WithString("question", mcp.Required(), mcp.Description("The question for the model.")),
		mcp.WithInteger("maxTokens", mcp.DefaultNumber(200), mcp.Min(1), mcp.Max(4096), mcp.Description("The longest answer to ask for, in tokens."))),
		askModel)
	s.AddTool(newTool("list_roots", "List the client's roots",
		"Asks the client for its roots (the directories it lets servers work in) and lists them. Needs a client that supports roots.",
		askedLocal),
		listRoots)
}

// confirmAction elicits a form with a boolean and a string.
func confirmAction(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return nil, errNoServer
	}
	if answer, ok := server.InputResponse(req.Params.InputResponses, "confirm"); ok {
		return answered("elicitation", answer, nil)
	}
	action := req.GetString("action", "delete the draft")
	params := mcp.ElicitationParams{
		Message: fmt.Sprintf("Go ahead and %s?", action),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"confirm": map[string]any{"type": "boolean", "title": "Go ahead", "description": "Whether to " + action + "."},
				"reason":  map[string]any{"type": "string", "title": "Reason", "description": "Why, in a few words."},
			},
			"required": []string{"confirm"},
		},
	}
	res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: params})
	if errors.Is(err, server.ErrServerInitiatedRequestUnsupported) {
		return server.NewInputRequestBuilder("").Elicit("confirm", params).ToolResult(), nil
	}
	return answered("elicitation", res, err)
}

// askModel sends sampling/createMessage with one user message.
func askModel(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return nil, errNoServer
	}
	if answer, ok := server.InputResponse(req.Params.InputResponses, "answer"); ok {
		return answered("sampling", answer, nil)
	}
	question, err := req.RequireString("question")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	params := mcp.CreateMessageParams{
		Messages:     []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(question)}},
		SystemPrompt: "Answer in one short paragraph.",
		MaxTokens:    req.GetInt("maxTokens", 200),
	}
	res, err := srv.RequestSampling(ctx, mcp.CreateMessageRequest{CreateMessageParams: params})
	if errors.Is(err, server.ErrServerInitiatedRequestUnsupported) {
		return server.NewInputRequestBuilder("").Sample("answer", params).ToolResult(), nil
	}
	return answered("sampling", res, err)
}

// listRoots sends roots/list.
func listRoots(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return nil, errNoServer
	}
	if answer, ok := server.InputResponse(req.Params.InputResponses, "roots"); ok {
		return answered("roots", answer, nil)
	}
	res, err := srv.RequestRoots(ctx, mcp.ListRootsRequest{})
	if errors.Is(err, server.ErrServerInitiatedRequestUnsupported) {
		return server.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
	}
	return answered("roots", res, err)
}

// answered reports the client's answer as JSON text, or its refusal as a
// tool error that quotes it, so that whoever called the tool sees exactly
// what the client said.
func answered(what string, res any, err error) (*mcp.CallToolResult, error) {
	if err != nil {
		return mcp.NewToolResultErrorf("the client did not answer the %s request: %v", what, err), nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encode the %s answer: %w", what, err)
	}
	return mcp.NewToolResultText(string(b)), nil
}
