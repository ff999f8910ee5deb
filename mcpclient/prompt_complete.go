package mcpclient

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// GetPrompt sends prompts/get and returns the result as the server sent
// it. A server that refuses the prompt (unknown, a required argument
// missing) fails the request with a *domain.ServerError and the session
// stays up.
func (s *session) GetPrompt(ctx context.Context, prompt string, args map[string]string) (json.RawMessage, error) {
	req := mcp.GetPromptRequest{}
	req.Params.Name = prompt
	req.Params.Arguments = args
	return s.sendRaw(ctx, "get prompt "+prompt, func(ctx context.Context) error {
		_, err := s.client.GetPrompt(ctx, req)
		return err
	})
}

// Complete sends completion/complete for one argument of a prompt or a
// resource template and returns the result as the server sent it; errors
// are the request's, as for GetPrompt.
func (s *session) Complete(ctx context.Context, req domain.CompleteRequest) (json.RawMessage, error) {
	r := mcp.CompleteRequest{}
	switch req.Ref.Type {
	case domain.RefResource:
		r.Params.Ref = mcp.ResourceReference{Type: req.Ref.Type, URI: req.Ref.URI}
	default:
		r.Params.Ref = mcp.PromptReference{Type: req.Ref.Type, Name: req.Ref.Name}
	}
	r.Params.Argument = mcp.CompleteArgument{Name: req.Argument, Value: req.Value}
	r.Params.Context = mcp.CompleteContext{Arguments: req.Context}
	return s.sendRaw(ctx, "complete "+req.Argument, func(ctx context.Context) error {
		_, err := s.client.Complete(ctx, r)
		return err
	})
}
