package domain

import (
	"context"
	"fmt"
)

// Policy says what Switchboard does with a call to one tool.
type Policy string

const (
	// PolicyAllow runs the call.
	PolicyAllow Policy = "allow"
	// PolicyAsk holds an AI client's call (Source gateway) until a person
	// approves or denies it on its card; calls a person makes from the
	// dashboard or the API run, since making them was the person's choice.
	PolicyAsk Policy = "ask"
	// PolicyDeny refuses the call on every path before an invocation is
	// recorded.
	PolicyDeny Policy = "deny"
	// PolicyHidden keeps the tool out of what AI clients are shown; a
	// person can still run it from the dashboard or the API.
	PolicyHidden Policy = "hidden"
)

// Valid reports whether p is one of the four policies.
func (p Policy) Valid() bool {
	switch p {
	case PolicyAllow, PolicyAsk, PolicyDeny, PolicyHidden:
		return true
	}
	return false
}

// PolicyDeniedError names the server and tool a deny policy refused, so the
// refusal says which setting to change; it is ErrDeniedByPolicy to
// errors.Is.
type PolicyDeniedError struct {
	Server string
	Tool   string
}

func (e *PolicyDeniedError) Error() string {
	return fmt.Sprintf("tool %q of server %q is denied by policy", e.Tool, e.Server)
}
func (e *PolicyDeniedError) Unwrap() error { return ErrDeniedByPolicy }

// ServerPolicies is what a person set for one server's tools: a policy per
// tool that has one, and whether to ask for every tool.
type ServerPolicies struct {
	Tools  map[string]Policy
	AskAll bool
}

// PolicyStore keeps people's policy choices per scope and server. A tool
// with no stored policy has none (its default applies); saving the empty
// policy removes a tool's choice.
type PolicyStore interface {
	ServerPolicies(ctx context.Context, scope Scope, server string) (ServerPolicies, error)
	SaveToolPolicy(ctx context.Context, scope Scope, server, tool string, p Policy) error
	SaveAskAll(ctx context.Context, scope Scope, server string, askAll bool) error
}

// DefaultPolicy is a tool's policy when nobody chose one: ask before a tool
// that says it is destructive (and does not also say it is read-only),
// allow everything else. A tool with no annotations is allowed; the
// dashboard marks it as not annotated so a person can judge it.
func DefaultPolicy(t Tool) Policy {
	a := t.Annotations
	readOnly := a.ReadOnlyHint != nil && *a.ReadOnlyHint
	if a.DestructiveHint != nil && *a.DestructiveHint && !readOnly {
		return PolicyAsk
	}
	return PolicyAllow
}

// Annotated reports whether the server said anything about t's behaviour,
// which is what the default policy goes by.
func Annotated(t Tool) bool {
	a := t.Annotations
	return a.ReadOnlyHint != nil || a.DestructiveHint != nil || a.IdempotentHint != nil || a.OpenWorldHint != nil
}

// Effective is t's policy given what a person set: their choice for the
// tool, else the default; with AskAll, any tool that would be allowed is
// asked about instead (deny and hidden stay as they are).
func (sp ServerPolicies) Effective(t Tool) Policy {
	p, ok := sp.Tools[t.Name]
	if !ok || !p.Valid() {
		p = DefaultPolicy(t)
	}
	if sp.AskAll && p == PolicyAllow {
		return PolicyAsk
	}
	return p
}
