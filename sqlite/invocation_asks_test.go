package sqlite

import (
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// TestInvocationAsksRoundTrip checks that the requests a server made
// during a call come back in order, with their time to the millisecond,
// outcome and detail (text a server or client chose, kept as it was), on
// both the single read and the history listing; a call with no asks and no
// other details still reads back with none.
func TestInvocationAsksRoundTrip(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	with := finished(scopeA, "asked", 0)
	with.Source = domain.SourceGateway
	with.Asks = []domain.AskRecord{
		{Method: domain.MethodElicit, At: t0.Add(200 * time.Millisecond), Outcome: domain.AskAnswered},
		{Method: domain.MethodSample, At: t0.Add(300 * time.Millisecond), Outcome: domain.AskNotAsked,
			Detail: `the calling client did not declare sampling <b>"quoted"</b>`},
		{Method: domain.MethodRoots, At: t0.Add(400 * time.Millisecond), Outcome: domain.AskFailed,
			Detail: "client error: 日本語 détail"},
	}
	save(t, s, with)

	listed, err := s.Invocations(t.Context(), scopeA, domain.InvocationFilter{})
	if err != nil || len(listed) != 1 {
		t.Fatalf("Invocations: got %d (%v), want 1", len(listed), err)
	}
	for where, got := range map[string]domain.Invocation{"read": load(t, s, scopeA, "asked"), "list": listed[0]} {
		if len(got.Asks) != len(with.Asks) {
			t.Fatalf("%s: got %d asks, want %d", where, len(got.Asks), len(with.Asks))
		}
		for i, a := range got.Asks {
			w := with.Asks[i]
			if a.Method != w.Method || !a.At.Equal(w.At) || a.Outcome != w.Outcome || a.Detail != w.Detail {
				t.Errorf("%s: ask %d: got %+v, want %+v", where, i, a, w)
			}
		}
	}

	save(t, s, finished(scopeA, "plain", 10))
	if got := load(t, s, scopeA, "plain"); got.Asks != nil {
		t.Errorf("got asks %v on a call that asked nothing, want none", got.Asks)
	}
}
