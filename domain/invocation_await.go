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

// Waiter waits for one started call as Await does, and also returns its
// result exactly as the server sent it: whole even when it was larger
// than the store keeps (the invocation then holds the cut copy).
type Waiter func(ctx context.Context) (Invocation, json.RawMessage, error)

// StartWhole is Start for a caller that passes the result on, such as the
// gateway: the Waiter it returns is bound to the call itself, so the whole
// result is there however soon the call ends. Such a caller learns of the
// call only from its Waiter, so the pending state is not waited for: only
// the final state is (see FinishInvocation), before the Waiter returns.
func (s *Invocations) StartWhole(ctx context.Context, req CallRequest) (Invocation, Waiter, error) {
	inv, c, err := s.start(ctx, req, nil, true)
	if err != nil {
		return Invocation{}, nil, err
	}
	return inv, func(ctx context.Context) (Invocation, json.RawMessage, error) {
		c.runHere(ctx)
		inv, err := s.awaitCall(ctx, c)
		if err != nil || !inv.Status.Final() {
			return inv, inv.Result, err
		}
		c.mu.Lock()
		whole := c.whole
		c.mu.Unlock()
		if whole == nil {
			whole = inv.Result
		}
		return inv, whole, nil
	}, nil
}

// CallWhole is StartWhole and its Waiter.
func (s *Invocations) CallWhole(ctx context.Context, req CallRequest) (Invocation, json.RawMessage, error) {
	_, wait, err := s.StartWhole(ctx, req)
	if err != nil {
		return Invocation{}, nil, err
	}
	return wait(ctx)
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
	return s.awaitCall(ctx, c)
}

func (s *Invocations) awaitCall(ctx context.Context, c *call) (Invocation, error) {
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
