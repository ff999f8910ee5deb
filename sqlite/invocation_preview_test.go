package sqlite

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// A page lists a large result as what its card shows, read from the
// preview stored beside it; every other read gets the whole result.
func TestInvocationsListPreviewOfLargeResult(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	long := strings.Repeat("x", 3<<20)
	whole, err := json.Marshal(map[string]any{"content": []any{map[string]string{"type": "text", "text": long}}})
	if err != nil {
		t.Fatal(err)
	}
	big := finished(scopeA, "big", 10)
	big.Result = whole
	small := finished(scopeA, "small", 20)
	small.Result = json.RawMessage(`{"content":[{"type":"text","text":"hi"}]}`)
	save(t, s, big)
	save(t, s, small)
	want, ok := domain.ResultPreview(whole)
	if !ok {
		t.Fatal("a 3 MB text has no preview")
	}

	listed, err := s.Invocations(t.Context(), scopeA, domain.InvocationFilter{Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != 2 || listed[0].ID != "small" || listed[1].ID != "big" {
		t.Fatalf("listed %v; want small, big", ids(listed))
	}
	if !bytes.Equal(listed[1].Result, want) || !listed[1].ResultPreviewed {
		t.Errorf("big listed with %d bytes, previewed %v; want its %d-byte preview", len(listed[1].Result), listed[1].ResultPreviewed, len(want))
	}
	if !bytes.Equal(listed[0].Result, small.Result) || listed[0].ResultPreviewed {
		t.Errorf("small listed as %s, previewed %v; want it whole", listed[0].Result, listed[0].ResultPreviewed)
	}

	all, err := s.Invocations(t.Context(), scopeA, domain.InvocationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(all[1].Result, whole) || all[1].ResultPreviewed {
		t.Errorf("listed without Preview: %d bytes, previewed %v; want the whole %d", len(all[1].Result), all[1].ResultPreviewed, len(whole))
	}
	one, err := s.Invocation(t.Context(), scopeA, "big")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Result, whole) {
		t.Errorf("Invocation read %d bytes; want the whole %d", len(one.Result), len(whole))
	}
}

// A journal left by a version that stored no preview is still replayed:
// its row lists its result whole.
func TestReplayOfAnEntryWrittenBeforeResultPreview(t *testing.T) {
	if !haveFlock {
		t.Skip("no journal without flock")
	}
	dir := t.TempDir()
	db := openTestDB(t, dir)
	s := db.InvocationStore()
	inv := finished(scopeA, "old", 10)
	dead := strings.Repeat("cd", 16)
	j := newJournal(filepath.Join(dir, ownersDir), dead)
	args, err := invocationArgs(inv, dead)
	if err != nil {
		t.Fatal(err)
	}
	args = args[:len(args)-1] // the entry as the version before result_preview wrote it
	if _, err := j.append(inv.Scope.User, inv.Scope.Workspace, inv.ID, int64(inv.Version), args, auditArgs(auditOf(inv))); err != nil {
		t.Fatal(err)
	}
	j.cur.f.Close()
	if _, err := s.InterruptOrphans(t.Context(), domain.Interruption{EndedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if got := load(t, s, scopeA, "old"); got.Status != domain.InvocationSuccess {
		t.Errorf("replayed call: got %s, want success", got.Status)
	}
}
