package domain

import (
	"context"
	"fmt"
	"time"
)

// DefaultApprovalTimeout is how long Call holds a client's call awaiting
// approval: long enough for a person to look, short enough that a client
// waiting on the answer does not give up first.
const DefaultApprovalTimeout = 45 * time.Second

// GrantValidity is how long an approval given after the client stopped
// waiting stays usable, and how long such a call keeps awaiting a decision.
const GrantValidity = 10 * time.Minute

// ErrorCodeApprovalExpired marks a held call that never ran because the
// client stopped waiting: either it was approved too late (the approval
// became a grant for the client's identical retry) or nobody decided
// within GrantValidity. The invocation ends cancelled.
const ErrorCodeApprovalExpired = "approval_expired"

// ErrorCodeDenied marks a held call a person denied (status denied), so
// views can say so in the reader's language.
const ErrorCodeDenied = "denied_by_user"

// Messages of calls that ended at the approval step, for the API, the
// gateway's tool error and the logs; views translate the status and code.
const (
	DeniedMessage          = "denied by the user"
	ApprovedLateMessage    = "approved after the client stopped waiting; the same call retried within 10 minutes runs without asking"
	ApprovalExpiredMessage = "nobody approved or denied this call in time"
)

// AwaitingApprovalError is Call's answer when the hold limit passed while
// the call still awaited a person's decision. The call stays on its card;
// approving it now grants the client's retry with the same arguments.
type AwaitingApprovalError struct {
	Invocation Invocation
	Hold       time.Duration
}

func (e *AwaitingApprovalError) Error() string {
	return fmt.Sprintf("invocation %s of %s/%s still awaits approval after %s; approve it in Switchboard, then call again with the same arguments",
		e.Invocation.ID, e.Invocation.ServerName, e.Invocation.Tool, e.Hold)
}

// decision is a person's answer to a held call; done is closed once it
// took effect.
type decision struct {
	approve bool
	done    chan struct{}
}

// policy is the policy that applies to req's call of tool. A deny refuses
// every path; a hidden tool does not exist for AI clients; ask only holds
// gateway calls, since a person calling from the dashboard or the API has
// already decided.
func (s *Invocations) policy(ctx context.Context, req CallRequest, tool Tool) (Policy, error) {
	if s.opts.Policies == nil {
		return PolicyAllow, nil
	}
	p, err := s.opts.Policies.Effective(ctx, req.Scope, req.Server, tool)
	if err != nil {
		return "", err
	}
	switch {
	case p == PolicyDeny:
		return p, &PolicyDeniedError{Server: req.Server, Tool: req.Tool}
	case p == PolicyHidden && req.Source == SourceGateway:
		return p, &ToolNotFoundError{Server: req.Server, Tool: req.Tool}
	case p == PolicyAsk && req.Source != SourceGateway:
		return PolicyAllow, nil
	}
	return p, nil
}

// grantFor is the grant that would cover a call of tool on server by
// the client with token, with args.
func grantFor(scope Scope, token, server, tool string, args []byte) Grant {
	return Grant{Scope: scope, Token: token, Server: server, Tool: tool, ArgsHash: ArgumentsHash(args)}
}

// takeGrant reports whether a late approval covers this call, and uses it
// up: a grant runs one call. A store that fails is taken as holding no
// grant, so the call is asked about again rather than run unasked.
func (s *Invocations) takeGrant(ctx context.Context, req CallRequest, args []byte) bool {
	ok, err := s.opts.Grants.TakeGrant(ctx, grantFor(req.Scope, req.Client.Token, req.Server, req.Tool, args), s.opts.Clock.Now())
	if err != nil {
		s.opts.Log.Error("take approval grant", "server", req.Server, "tool", req.Tool, "error", err)
		return false
	}
	return ok
}

// Approve lets a held call run. When its client already stopped waiting
// the call is not run; the approval becomes a grant for the client's retry
// with identical arguments, and the invocation ends cancelled with
// ErrorCodeApprovalExpired.
func (s *Invocations) Approve(ctx context.Context, scope Scope, id string) (Invocation, error) {
	return s.decide(ctx, scope, id, true)
}

// Deny ends a held call as denied without sending it.
func (s *Invocations) Deny(ctx context.Context, scope Scope, id string) (Invocation, error) {
	return s.decide(ctx, scope, id, false)
}

func (s *Invocations) decide(ctx context.Context, scope Scope, id string, approve bool) (Invocation, error) {
	s.mu.Lock()
	c, ok := s.running[id]
	s.mu.Unlock()
	if !ok {
		if _, err := s.Get(ctx, scope, id); err != nil {
			return Invocation{}, err
		}
		return Invocation{}, fmt.Errorf("invocation %s: %w", id, ErrNotAwaitingApproval)
	}
	d := decision{approve: approve, done: make(chan struct{})}
	c.mu.Lock()
	if c.inv.Scope != scope {
		c.mu.Unlock()
		return Invocation{}, fmt.Errorf("invocation %q: %w", id, ErrInvocationNotFound)
	}
	if !c.ask || c.decided || c.cancelled || c.inv.Status.Final() {
		c.mu.Unlock()
		return Invocation{}, fmt.Errorf("invocation %s: %w", id, ErrNotAwaitingApproval)
	}
	c.decided = true
	c.mu.Unlock()
	c.decisions <- d // never blocks: decided lets one decision through
	select {
	case <-d.done:
	case <-c.done:
	case <-ctx.Done():
		return Invocation{}, ctx.Err()
	}
	return c.snapshot(), nil
}

// awaitApproval holds the call until a person decides, and reports whether
// to send it. It ends the call itself when it is denied, cancelled or
// approved too late. Past the hold limit it closes held, so Call can
// answer the client, and keeps waiting up to GrantValidity for a decision.
func (c *call) awaitApproval(ctx context.Context) bool {
	s := c.svc
	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.mu.Lock()
	c.cancel = cancel
	cancelled := c.cancelled
	c.mu.Unlock()
	if cancelled {
		c.finish(ctx, nil, context.Canceled)
		return false
	}
	c.move(InvocationAwaitingApproval)
	if err := c.save(ctx); err != nil {
		s.opts.Log.Error("save invocation", "invocation", c.snapshot().ID, "error", err)
	}
	hold := s.opts.Clock.NewTimer(s.opts.ApprovalTimeout)
	defer hold.Stop()
	holdC := hold.C()
	var expireC <-chan time.Time
	late := false
	for {
		select {
		case d := <-c.decisions:
			defer close(d.done)
			switch {
			case !d.approve:
				c.end(ctx, InvocationDenied, ErrorCodeDenied, DeniedMessage)
				return false
			case late:
				s.grant(ctx, c.snapshot())
				c.end(ctx, InvocationCancelled, ErrorCodeApprovalExpired, ApprovedLateMessage)
				return false
			}
			c.move(InvocationRunning)
			if err := c.save(ctx); err != nil {
				s.opts.Log.Error("save invocation", "invocation", c.snapshot().ID, "error", err)
			}
			return true
		case <-waitCtx.Done():
			c.finish(ctx, nil, context.Canceled)
			return false
		case <-holdC:
			holdC, late = nil, true
			close(c.held)
			expire := s.opts.Clock.NewTimer(GrantValidity)
			defer expire.Stop()
			expireC = expire.C()
		case <-expireC:
			c.end(ctx, InvocationCancelled, ErrorCodeApprovalExpired, ApprovalExpiredMessage)
			return false
		}
	}
}

// grant records a late approval of inv for its client's identical retry.
// The client may be retrying already, so the grant is saved even when the
// held call's context has ended.
func (s *Invocations) grant(ctx context.Context, inv Invocation) {
	g := grantFor(inv.Scope, inv.Client.Token, inv.ServerName, inv.Tool, inv.Arguments)
	g.Expires = s.opts.Clock.Now().Add(GrantValidity)
	if err := s.opts.Grants.AddGrant(context.WithoutCancel(ctx), g); err != nil {
		s.opts.Log.Error("save approval grant", "invocation", inv.ID, "error", err)
	}
}

// end finishes a call that was never sent, with its audit row.
func (c *call) end(ctx context.Context, to InvocationStatus, code, msg string) {
	s := c.svc
	if !c.move(to) {
		s.opts.Log.Error("refused invocation transition", "invocation", c.snapshot().ID, "to", string(to))
	}
	c.mu.Lock()
	c.inv.EndedAt = s.opts.Clock.Now()
	c.inv.ErrorCode, c.inv.Error = code, msg
	inv := c.inv
	c.mu.Unlock()
	c.record(ctx, inv, to)
	s.opts.Log.Info("tool call finished", "server", inv.ServerName, "tool", inv.Tool, "invocation", inv.ID,
		"status", string(to), "error_code", code)
}
