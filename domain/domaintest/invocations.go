package domaintest

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// InvocationStore is an in-memory domain.InvocationStore for service
// tests; the sqlite adapter has its own tests against a real file.
type InvocationStore struct {
	mu    sync.Mutex // guards invs, audit and left
	invs  map[string]domain.Invocation
	audit []domain.AuditRecord
	left  map[string]bool // ids a stopped process left unfinished (AddLeftOver)
}

var _ domain.InvocationStore = (*InvocationStore)(nil)

// NewInvocationStore returns an empty store.
func NewInvocationStore() *InvocationStore {
	return &InvocationStore{invs: map[string]domain.Invocation{}}
}

func (s *InvocationStore) SaveInvocation(ctx context.Context, inv domain.Invocation) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.invs[inv.ID]; ok && old.Version > inv.Version {
		return nil
	}
	s.invs[inv.ID] = inv
	return nil
}

// QueueInvocation saves inv at once: the fake has no disk to wait for.
func (s *InvocationStore) QueueInvocation(inv domain.Invocation, failed func(error)) {
	if err := s.SaveInvocation(context.Background(), inv); err != nil && failed != nil {
		failed(err)
	}
}

// FinishInvocation appends the audit row and saves inv.
func (s *InvocationStore) FinishInvocation(ctx context.Context, inv domain.Invocation, rec domain.AuditRecord) error {
	if err := s.AppendAudit(ctx, rec); err != nil {
		return err
	}
	return s.SaveInvocation(ctx, inv)
}

func (s *InvocationStore) Invocation(ctx context.Context, scope domain.Scope, id string) (domain.Invocation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	inv, ok := s.invs[id]
	if !ok || inv.Scope != scope {
		return domain.Invocation{}, fmt.Errorf("invocation %q: %w", id, domain.ErrInvocationNotFound)
	}
	return inv, nil
}

func (s *InvocationStore) Invocations(ctx context.Context, scope domain.Scope, f domain.InvocationFilter) ([]domain.Invocation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []domain.Invocation
	for _, inv := range s.invs {
		if inv.Scope == scope && (f.ServerName == "" || inv.ServerName == f.ServerName) &&
			(f.Tool == "" || inv.Tool == f.Tool) && (f.Status == "" || inv.Status == f.Status) &&
			(f.Source == "" || inv.Source == f.Source) && (f.Client == "" || inv.Client.Name == f.Client) {
			out = append(out, inv)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartedAt.After(out[j].StartedAt) })
	return out, nil
}

func (s *InvocationStore) AppendAudit(ctx context.Context, rec domain.AuditRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.audit = append(s.audit, rec)
	return nil
}

// Audit returns the audit rows appended so far.
func (s *InvocationStore) Audit() []domain.AuditRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]domain.AuditRecord(nil), s.audit...)
}

func (s *InvocationStore) PruneBefore(ctx context.Context, t time.Time) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for id, inv := range s.invs {
		if !inv.EndedAt.IsZero() && inv.EndedAt.Before(t) {
			delete(s.invs, id)
			n++
		}
	}
	return n, nil
}
