package sqlite

import (
	"slices"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestInvocationNeededScopesRoundTrip checks that the scopes a server
// asked for when it refused a call for lack of access come back with the
// call's error code, on the single read and the history listing.
func TestInvocationNeededScopesRoundTrip(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	inv := finished(scopeA, "refused", 0)
	inv.Status = domain.InvocationError
	inv.Error = "the server needs more access than this sign-in grants (scopes: repo write)"
	inv.ErrorCode = domain.ErrorCodeNeedsMoreAccess
	inv.NeededScopes = []string{"repo", "write"}
	save(t, s, inv)

	listed, err := s.Invocations(t.Context(), scopeA, domain.InvocationFilter{})
	if err != nil || len(listed) != 1 {
		t.Fatalf("Invocations: got %d (%v), want 1", len(listed), err)
	}
	for where, got := range map[string]domain.Invocation{"read": load(t, s, scopeA, "refused"), "list": listed[0]} {
		if got.ErrorCode != domain.ErrorCodeNeedsMoreAccess || !slices.Equal(got.NeededScopes, inv.NeededScopes) {
			t.Errorf("%s: code %q scopes %v, want %q %v", where, got.ErrorCode, got.NeededScopes, domain.ErrorCodeNeedsMoreAccess, inv.NeededScopes)
		}
	}
}
