package demoserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// errMissingArgument marks a prompts/get that left out a required argument.
var errMissingArgument = errors.New("missing required argument")

// addPrompts registers two prompts so a client can show required and optional
// arguments side by side.
func addPrompts(s *server.MCPServer) {
	s.AddPrompt(mcp.NewPrompt("summarize",
		mcp.WithPromptTitle("Summarize a topic"),
		mcp.WithPromptDescription("Asks the model for a summary of a topic, optionally in a given style."),
		mcp.WithArgument("topic", mcp.RequiredArgument(), mcp.ArgumentTitle("Topic"),
			mcp.ArgumentDescription("What to summarize.")),
		mcp.WithArgument("style", mcp.ArgumentTitle("Style"),
			mcp.ArgumentDescription("How to write it, e.g. bullet points or one paragraph. Defaults to concise.")),
	), summarize)
	s.AddPrompt(mcp.NewPrompt("review_code",
		mcp.WithPromptTitle("Review code"),
		mcp.WithPromptDescription("Asks the model to review a snippet in a given language, with a sample snippet embedded."),
		mcp.WithArgument("language", mcp.RequiredArgument(), mcp.ArgumentTitle("Language"),
			mcp.ArgumentDescription("Programming language of the code to review.")),
	), reviewCode)
}

// summarize builds a single user message from topic and style.
func summarize(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	topic := req.Params.Arguments["topic"]
	if topic == "" {
		return nil, fmt.Errorf("summarize: topic: %w", errMissingArgument)
	}
	style := req.Params.Arguments["style"]
	if style == "" {
		style = "concise"
	}
	return mcp.NewGetPromptResult("Summary of "+topic, []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(
			fmt.Sprintf("Summarize %s. Write in a %s style.", topic, style))),
	}), nil
}

// reviewCode builds a conversation whose second message embeds a resource,
// so clients see a prompt with more than one message and content type.
func reviewCode(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	language := req.Params.Arguments["language"]
	if language == "" {
		return nil, fmt.Errorf("review_code: language: %w", errMissingArgument)
	}
	snippet := mcp.TextResourceContents{
		URI:      "demo://snippets/example",
		MIMEType: "text/plain",
		Text:     "func add(a, b int) int { return a - b }\n",
	}
	return mcp.NewGetPromptResult("Code review in "+language, []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(
			fmt.Sprintf("Review the following %s code. Point out bugs first, then style.", language))),
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewEmbeddedResource(snippet)),
		mcp.NewPromptMessage(mcp.RoleAssistant, mcp.NewTextContent(
			"I will look for bugs first. Please paste the code if it is not attached.")),
	}), nil
}
