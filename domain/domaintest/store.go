package domaintest

import (
	"context"
	"sync"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Store is an in-memory domain.Store for supervisor tests; the sqlite
// adapter has its own tests against a real file.
type Store struct {
	mu      sync.Mutex // guards records
	records map[domain.Scope]map[string]domain.ServerRecord
}

var _ domain.Store = (*Store)(nil)

// NewStore returns an empty store.
func NewStore() *Store { return &Store{records: map[domain.Scope]map[string]domain.ServerRecord{}} }

func (s *Store) ServerRecords(ctx context.Context, scope domain.Scope) (map[string]domain.ServerRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]domain.ServerRecord{}
	for k, v := range s.records[scope] {
		out[k] = v
	}
	return out, nil
}

func (s *Store) SaveServerRecord(ctx context.Context, scope domain.Scope, rec domain.ServerRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.records[scope] == nil {
		s.records[scope] = map[string]domain.ServerRecord{}
	}
	s.records[scope][rec.Name] = rec
	return nil
}

func (s *Store) PurgeServer(ctx context.Context, scope domain.Scope, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.records[scope], name)
	return nil
}
