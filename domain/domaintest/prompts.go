package domaintest

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/switchboard-mcp/switchboard/domain"
)

// prompts holds a session's prompts/get and completion/complete handlers.
type prompts struct {
	mu       sync.Mutex // guards get and complete
	get      func(ctx context.Context, prompt string, args map[string]string) (json.RawMessage, error)
	complete func(ctx context.Context, req domain.CompleteRequest) (json.RawMessage, error)
}

// OnGetPrompt sets how the session answers prompts/get; by default it
// answers a result with no messages.
func (s *Session) OnGetPrompt(h func(ctx context.Context, prompt string, args map[string]string) (json.RawMessage, error)) {
	s.prompts.mu.Lock()
	s.prompts.get = h
	s.prompts.mu.Unlock()
}

// OnComplete sets how the session answers completion/complete; by default
// it answers no values.
func (s *Session) OnComplete(h func(ctx context.Context, req domain.CompleteRequest) (json.RawMessage, error)) {
	s.prompts.mu.Lock()
	s.prompts.complete = h
	s.prompts.mu.Unlock()
}

func (s *Session) GetPrompt(ctx context.Context, prompt string, args map[string]string) (json.RawMessage, error) {
	s.prompts.mu.Lock()
	h := s.prompts.get
	s.prompts.mu.Unlock()
	if h == nil {
		return json.RawMessage(`{"messages":[]}`), nil
	}
	return h(ctx, prompt, args)
}

func (s *Session) Complete(ctx context.Context, req domain.CompleteRequest) (json.RawMessage, error) {
	s.prompts.mu.Lock()
	h := s.prompts.complete
	s.prompts.mu.Unlock()
	if h == nil {
		return json.RawMessage(`{"completion":{"values":[]}}`), nil
	}
	return h(ctx, req)
}
