package domaintest

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/switchboard-mcp/switchboard/domain"
)

// CallHandler answers a tools/call on a fake session.
type CallHandler func(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error)

// calls holds a session's call and read handlers.
type calls struct {
	mu   sync.Mutex // guards call and read
	call CallHandler
	read func(ctx context.Context, uri string) (json.RawMessage, error)
}

// OnCall sets how the session answers tools/call; by default it answers
// an empty successful result.
func (s *Session) OnCall(h CallHandler) {
	s.calls.mu.Lock()
	s.calls.call = h
	s.calls.mu.Unlock()
}

// OnRead sets how the session answers resources/read.
func (s *Session) OnRead(h func(ctx context.Context, uri string) (json.RawMessage, error)) {
	s.calls.mu.Lock()
	s.calls.read = h
	s.calls.mu.Unlock()
}

func (s *Session) CallTool(ctx context.Context, tool string, args json.RawMessage, progress func(domain.Progress)) (json.RawMessage, error) {
	s.calls.mu.Lock()
	h := s.calls.call
	s.calls.mu.Unlock()
	if h == nil {
		return json.RawMessage(`{"content":[]}`), nil
	}
	return h(ctx, tool, args, progress)
}

func (s *Session) ReadResource(ctx context.Context, uri string) (json.RawMessage, error) {
	s.calls.mu.Lock()
	h := s.calls.read
	s.calls.mu.Unlock()
	if h == nil {
		return json.RawMessage(`{"contents":[]}`), nil
	}
	return h(ctx, uri)
}
