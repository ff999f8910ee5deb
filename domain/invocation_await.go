package domain

import (
	"context"
	"fmt"
)

// Call starts a call and waits for its final state, for callers that
// answer only once the call is over (an AI client through the gateway).
// When ctx ends first the call is cancelled, so a client that gave up
// never leaves work running on its behalf; the invocation is returned as
// it ended.
func (s *Invocations) Call(ctx context.Context, req CallRequest) (Invocation, error) {
	inv, err := s.Start(ctx, req)
	if err != nil {
		return Invocation{}, err
	}
	return s.Await(ctx, req.Scope, inv.ID)
}

// Await waits until the invocation is final. When ctx ends first the call
// is cancelled and Await returns its final state.
func (s *Invocations) Await(ctx context.Context, scope Scope, id string) (Invocation, error) {
	s.mu.Lock()
	c, ok := s.running[id]
	s.mu.Unlock()
	if !ok {
		return s.Get(ctx, scope, id)
	}
	if c.snapshot().Scope != scope {
		return Invocation{}, fmt.Errorf("invocation %q: %w", id, ErrInvocationNotFound)
	}
	select {
	case <-c.done:
		return c.snapshot(), nil
	case <-ctx.Done():
		c.cancelByPerson()
		<-c.done
		return c.snapshot(), nil
	}
}
