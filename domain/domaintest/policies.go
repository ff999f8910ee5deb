package domaintest

import (
	"context"
	"maps"
	"sync"

	"github.com/switchboard-mcp/switchboard/domain"
)

// PolicyStore is an in-memory domain.PolicyStore for service tests; the
// sqlite adapter has its own tests against a real file.
type PolicyStore struct {
	mu      sync.Mutex // guards servers
	servers map[policyKey]domain.ServerPolicies
}

type policyKey struct {
	scope  domain.Scope
	server string
}

var _ domain.PolicyStore = (*PolicyStore)(nil)

// NewPolicyStore returns a store with no choices.
func NewPolicyStore() *PolicyStore {
	return &PolicyStore{servers: map[policyKey]domain.ServerPolicies{}}
}

func (s *PolicyStore) ServerPolicies(ctx context.Context, scope domain.Scope, server string) (domain.ServerPolicies, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp := s.servers[policyKey{scope, server}]
	sp.Tools = maps.Clone(sp.Tools)
	return sp, nil
}

func (s *PolicyStore) SaveToolPolicy(ctx context.Context, scope domain.Scope, server, tool string, p domain.Policy) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := policyKey{scope, server}
	sp := s.servers[k]
	if sp.Tools == nil {
		sp.Tools = map[string]domain.Policy{}
	}
	if p == "" {
		delete(sp.Tools, tool)
	} else {
		sp.Tools[tool] = p
	}
	s.servers[k] = sp
	return nil
}

func (s *PolicyStore) SaveAskAll(ctx context.Context, scope domain.Scope, server string, askAll bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := policyKey{scope, server}
	sp := s.servers[k]
	sp.AskAll = askAll
	s.servers[k] = sp
	return nil
}
