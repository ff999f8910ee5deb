package domaintest

import (
	"context"

	"github.com/switchboard-mcp/switchboard/domain"
)

// AddLeftOver stores inv as a call that a stopped Switchboard process
// left unfinished, which InterruptOrphans may end without IncludeOwn.
func (s *InvocationStore) AddLeftOver(inv domain.Invocation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.left == nil {
		s.left = map[string]bool{}
	}
	s.invs[inv.ID] = inv
	s.left[inv.ID] = true
}

// InterruptOrphans ends the selected unfinished calls the way the sqlite
// store does. Calls saved through SaveInvocation belong to this process,
// so only IncludeOwn ends them.
func (s *InvocationStore) InterruptOrphans(ctx context.Context, sel domain.Interruption) ([]domain.Invocation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []domain.Invocation
	for id, inv := range s.invs {
		if inv.Status.Final() || (sel.Scope != nil && inv.Scope != *sel.Scope) || (sel.ID != "" && id != sel.ID) ||
			(!s.left[id] && !sel.IncludeOwn) {
			continue
		}
		inv.Status = domain.InvocationError
		inv.ErrorCode = domain.ErrorCodeInterrupted
		inv.Error = domain.InterruptedMessage
		inv.EndedAt = sel.EndedAt
		if inv.EndedAt.Before(inv.StartedAt) {
			inv.EndedAt = inv.StartedAt
		}
		inv.Version++
		s.invs[id] = inv
		delete(s.left, id)
		s.audit = append(s.audit, domain.AuditRecord{InvocationID: id, Scope: inv.Scope, ServerName: inv.ServerName,
			Tool: inv.Tool, ArgsSHA256: domain.ArgumentsHash(inv.Arguments), StartedAt: inv.StartedAt,
			EndedAt: inv.EndedAt, Outcome: inv.Status})
		out = append(out, inv)
	}
	return out, nil
}
