package demoserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestPromptsDeclareArguments(t *testing.T) {
	tests := []struct {
		prompt string
		want   map[string]bool // argument name -> required
	}{
		{"summarize", map[string]bool{"topic": true, "style": false}},
		{"review_code", map[string]bool{"language": true}},
	}
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	list, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatalf("ListPrompts: %v", err)
	}
	prompts := map[string]mcp.Prompt{}
	for _, p := range list.Prompts {
		prompts[p.Name] = p
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			p, ok := prompts[tt.prompt]
			if !ok {
				t.Fatalf("prompt %s not listed", tt.prompt)
			}
			if p.Description == "" {
				t.Errorf("description: got empty, want a sentence")
			}
			got := map[string]bool{}
			for _, a := range p.Arguments {
				got[a.Name] = a.Required
				if a.Description == "" {
					t.Errorf("argument %s description: got empty, want a sentence", a.Name)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("arguments: got %v, want %v", got, tt.want)
			}
			for name, required := range tt.want {
				if r, ok := got[name]; !ok || r != required {
					t.Errorf("argument %s required: got %v (listed %v), want %v", name, r, ok, required)
				}
			}
		})
	}
}

func TestGetPrompt(t *testing.T) {
	tests := []struct {
		name         string
		prompt       string
		args         map[string]string
		wantMessages int
		wantText     string
		wantErr      bool
	}{
		{"summarize-default-style", "summarize", map[string]string{"topic": "MCP"}, 1, "Summarize MCP. Write in a concise style.", false},
		{"summarize-with-style", "summarize", map[string]string{"topic": "MCP", "style": "pirate"}, 1, "pirate style", false},
		{"summarize-without-topic-fails", "summarize", nil, 0, "", true},
		{"review-code", "review_code", map[string]string{"language": "Go"}, 3, "Review the following Go code", false},
		{"review-code-without-language-fails", "review_code", nil, 0, "", true},
	}
	c := newClient(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
			defer cancel()
			req := mcp.GetPromptRequest{}
			req.Params.Name = tt.prompt
			req.Params.Arguments = tt.args
			res, err := c.GetPrompt(ctx, req)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("GetPrompt: got %+v, want an error", res)
				}
				return
			}
			if err != nil {
				t.Fatalf("GetPrompt: %v", err)
			}
			if len(res.Messages) != tt.wantMessages {
				t.Fatalf("messages: got %d, want %d", len(res.Messages), tt.wantMessages)
			}
			text, ok := res.Messages[0].Content.(mcp.TextContent)
			if !ok || !strings.Contains(text.Text, tt.wantText) {
				t.Errorf("first message: got %+v, want text containing %q", res.Messages[0].Content, tt.wantText)
			}
		})
	}
}
