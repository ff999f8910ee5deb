package domain

import (
	"context"
	"encoding/json"
	"fmt"
)

// Call starts a call and waits for its final state, for callers that
// answer only once the call is over (an AI client through the gateway);
// it is Start then Await.
func (s *Invocations) Call(ctx context.Context, req CallRequest) (Invocation, error) {
	inv, err := s.Start(ctx, req)
	if err != nil {
		return Invocation{}, err
	}
	return s.Await(ctx, req.Scope, inv.ID)
}

// CallWhole is Call for a caller that passes the result on: it also
// returns the result exactly as the server sent it, whole even when it was
// larger than the store keeps (the invocation then holds the cut copy).
func (s *Invocations) CallWhole(ctx context.Context, req CallRequest) (Invocation, json.RawMessage, error) {
	inv, err := s.Start(ctx, req)
	if err != nil {
		return Invocation{}, nil, err
	}
	return s.AwaitWhole(ctx, req.Scope, inv.ID)
}

// AwaitWhole is Await that also returns the whole result, as CallWhole
// does. A call that ended before the wait began has only the stored copy.
func (s *Invocations) AwaitWhole(ctx context.Context, scope Scope, id string) (Invocation, json.RawMessage, error) {
	s.mu.Lock()
	c, ok := s.running[id]
	s.mu.Unlock()
	inv, err := s.Await(ctx, scope, id)
	if err != nil || !ok || !inv.Status.Final() {
		return inv, inv.Result, err
	}
	c.mu.Lock()
	whole := c.whole
	c.mu.Unlock()
	if whole == nil {
		whole = inv.Result
	}
	return inv, whole, nil
}

// Await waits until the invocation is final. When ctx ends first the call
// is cancelled, so a client that gave up never leaves work running on its
// behalf, and Await returns its final state. A call held for approval
// longer than the hold limit (InvocationsOptions.ApprovalTimeout) returns
// *AwaitingApprovalError instead: the call stays awaiting on its card, and
// an approval from then on lets the client's identical retry run.
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
	case <-c.held:
		select {
		case <-c.done: // decided at the very moment the hold passed
			return c.snapshot(), nil
		default:
		}
		return c.snapshot(), &AwaitingApprovalError{Invocation: c.snapshot(), Hold: s.opts.ApprovalTimeout}
	case <-ctx.Done():
		c.cancelByPerson()
		<-c.done
		return c.snapshot(), nil
	}
}
