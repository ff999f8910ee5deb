package domain

import (
	"context"
	"fmt"
	"slices"
)

// Policies reads and changes tool policies. Every call path consults it
// through Invocations; the gateway also asks it which tools to hide.
type Policies struct {
	store PolicyStore
}

// NewPolicies returns the policy service over store.
func NewPolicies(store PolicyStore) *Policies {
	return &Policies{store: store}
}

// Server returns what was set for server's tools. A nil *Policies has
// nothing set, so every tool has its default.
func (p *Policies) Server(ctx context.Context, scope Scope, server string) (ServerPolicies, error) {
	if p == nil {
		return ServerPolicies{}, nil
	}
	sp, err := p.store.ServerPolicies(ctx, scope, server)
	if err != nil {
		return ServerPolicies{}, fmt.Errorf("policies of %s: %w", server, err)
	}
	return sp, nil
}

// Effective is the policy that applies to a call of tool on server now.
func (p *Policies) Effective(ctx context.Context, scope Scope, server string, tool Tool) (Policy, error) {
	sp, err := p.Server(ctx, scope, server)
	if err != nil {
		return "", err
	}
	return sp.Effective(tool), nil
}

// SetTool stores a person's policy for one tool; the empty policy returns
// the tool to its default.
func (p *Policies) SetTool(ctx context.Context, scope Scope, server, tool string, pol Policy) error {
	if pol != "" && !pol.Valid() {
		return fmt.Errorf("policy %q: %w", pol, ErrInvalidPolicy)
	}
	if err := p.store.SaveToolPolicy(ctx, scope, server, tool, pol); err != nil {
		return fmt.Errorf("set policy of %s/%s: %w", server, tool, err)
	}
	return nil
}

// SetAskAll turns "ask for every tool of this server" on or off.
func (p *Policies) SetAskAll(ctx context.Context, scope Scope, server string, askAll bool) error {
	if err := p.store.SaveAskAll(ctx, scope, server, askAll); err != nil {
		return fmt.Errorf("set ask-all of %s: %w", server, err)
	}
	return nil
}

// VisibleTools is tools without the ones whose policy is hidden: what the
// gateway lists to AI clients. Denied tools stay listed, so a client that
// calls one learns why it is refused. When nothing is hidden the result is
// tools itself, so neither side may change its elements afterwards.
func (p *Policies) VisibleTools(ctx context.Context, scope Scope, server string, tools []Tool) ([]Tool, error) {
	sp, err := p.Server(ctx, scope, server)
	if err != nil {
		return nil, err
	}
	// Most servers hide nothing: then the caller gets tools itself, not a
	// copy, so a gateway over hundreds of servers keeps each list once.
	first := slices.IndexFunc(tools, func(t Tool) bool { return sp.Effective(t) == PolicyHidden })
	if first < 0 {
		return tools, nil
	}
	out := append(make([]Tool, 0, len(tools)-1), tools[:first]...)
	for _, t := range tools[first+1:] {
		if sp.Effective(t) != PolicyHidden {
			out = append(out, t)
		}
	}
	return out, nil
}
