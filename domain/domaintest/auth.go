package domaintest

import (
	"sync"

	"github.com/switchboard-mcp/switchboard/domain"
)

// AuthSource is a domain.AuthSource whose answers the test sets: a server
// it was told nothing about does not use OAuth.
type AuthSource struct {
	mu    sync.Mutex // guards state
	state map[string]domain.AuthStatus
}

var _ domain.AuthSource = (*AuthSource)(nil)

// NewAuthSource returns a source that knows no server.
func NewAuthSource() *AuthSource { return &AuthSource{state: map[string]domain.AuthStatus{}} }

// Set makes server's sign-in a, or forgets it when a is nil.
func (s *AuthSource) Set(server string, a *domain.AuthStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a == nil {
		delete(s.state, server)
		return
	}
	s.state[server] = *a
}

// AuthStatus returns a fresh copy of what Set last said, as the OAuth
// adapter does, so no caller can change the source's own value.
func (s *AuthSource) AuthStatus(server string) *domain.AuthStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.state[server]
	if !ok {
		return nil
	}
	a.Scopes = append([]string(nil), a.Scopes...)
	return &a
}
