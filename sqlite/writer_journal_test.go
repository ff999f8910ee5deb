package sqlite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// journalFiles lists the journal segments in dir's running/ directory.
func journalFiles(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, ownersDir, "*"+journalSuffix))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// An agent is answered once the final state is in the journal, before
// the commit: a process that stops right then (its commit held back, its
// lock gone as the kernel drops it) has the call committed, with its
// audit row, by the next Open, and only once.
func TestQueueFinishIsReplayedAfterACrashBeforeItsCommit(t *testing.T) {
	if !haveFlock {
		t.Skip("no journal without flock: QueueFinish waits for the commit")
	}
	dir := t.TempDir()
	first, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	// The writer's only connection, taken: nothing it queues commits.
	held, err := first.write.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	inv := finished(scopeA, "answered", 0)
	inv.Version = 2
	pending := inv
	pending.Status, pending.Result, pending.ResultSize, pending.EndedAt, pending.Version = domain.InvocationPending, nil, 0, inv.StartedAt.Add(-1), 1
	s := first.InvocationStore()
	s.QueueInvocation(pending, nil)
	if err := s.QueueFinish(inv, auditOf(inv), nil)(t.Context()); err != nil {
		t.Fatalf("wait for the final state: %v", err)
	}
	if err := first.lock.release(); err != nil { // as the kernel does for a killed process
		t.Fatal(err)
	}

	again := openTestDB(t, dir)
	if got := load(t, again.InvocationStore(), scopeA, inv.ID); got.Status != domain.InvocationSuccess || got.Version != 2 {
		t.Errorf("after the restart: got %s version %d, want success version 2", got.Status, got.Version)
	}
	if n := countAudit(t, again); n != 1 {
		t.Errorf("audit rows after the restart: got %d, want 1", n)
	}
	for _, p := range journalFiles(t, dir) {
		if strings.Contains(filepath.Base(p), first.owner) {
			t.Errorf("the replayed journal %s is still there", p)
		}
	}
	// The stopped process's writer gets its connection back only now, so
	// that its late commit cannot be what the checks above saw.
	_ = held.Close()
	_ = first.Close()
}

// Replaying a journal whose entries were committed already (the process
// stopped between its commit and emptying the journal) adds nothing,
// and a torn last line, a write the process never finished, is skipped.
func TestReplaySkipsCommittedEntriesAndTornLines(t *testing.T) {
	if !haveFlock {
		t.Skip("no journal without flock")
	}
	dir := t.TempDir()
	db := openTestDB(t, dir)
	s := db.InvocationStore()
	inv := finished(scopeA, "done", 0)
	if err := s.FinishInvocation(t.Context(), inv, auditOf(inv)); err != nil {
		t.Fatal(err)
	}
	late := finished(scopeA, "late", 10)
	dead := strings.Repeat("ab", 16)
	j := newJournal(filepath.Join(dir, ownersDir), dead)
	for _, e := range []domain.Invocation{inv, late} {
		args, err := invocationArgs(e, dead)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.append(e.Scope.User, e.Scope.Workspace, e.ID, int64(e.Version), args, auditArgs(auditOf(e))); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(j.cur.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"u":"alice","w":"w1","id":"torn","v":9,"inv":[`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	j.cur.f.Close()

	if _, err := s.InterruptOrphans(t.Context(), domain.Interruption{EndedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if n := countAudit(t, db); n != 2 {
		t.Errorf("audit rows: got %d, want 2 (the committed call once, the late one once)", n)
	}
	if got := load(t, s, scopeA, "late"); got.Status != domain.InvocationSuccess {
		t.Errorf("late call: got %s, want success", got.Status)
	}
	if files := journalFiles(t, dir); len(files) != 0 {
		t.Errorf("journals after the replay: %v, want none", files)
	}
}

// A journal holds only what waits for its commit: emptied once the writer
// has committed, and gone after Close.
func TestJournalIsEmptiedByTheCommitAndRemovedByClose(t *testing.T) {
	if !haveFlock {
		t.Skip("no journal without flock")
	}
	dir := t.TempDir()
	db, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	s := db.InvocationStore()
	for i, id := range []string{"a", "b", "c"} {
		inv := finished(scopeA, id, int64(i))
		if err := s.QueueFinish(inv, auditOf(inv), func(err error) { t.Errorf("commit %s: %v", id, err) })(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	load(t, s, scopeA, "c") // flushes the writer
	files := journalFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("journal segments: %v, want one", files)
	}
	if info, err := os.Stat(files[0]); err != nil || info.Size() != 0 {
		t.Errorf("journal after the commit: %v, %v; want it empty", info, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if files := journalFiles(t, dir); len(files) != 0 {
		t.Errorf("journals after Close: %v, want none", files)
	}
}

// Statement arguments come back from the journal as the SQL types they
// went in as.
func TestJournalArgumentsKeepTheirTypes(t *testing.T) {
	in := []any{nil, "text", "", int64(-7), int64(1 << 53), true, false, []byte{0, 1, 2}, []byte{}}
	raw, err := encodeArgs(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decodeArgs(raw)
	if err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if got, want := out[i], in[i]; !equalArg(got, want) {
			t.Errorf("argument %d: got %#v, want %#v", i, got, want)
		}
	}
	if _, err := encodeArgs([]any{3.5}); err == nil {
		t.Error("a float: got nil error, want one (the store never writes floats)")
	}
}

func equalArg(a, b any) bool {
	ab, aok := a.([]byte)
	bb, bok := b.([]byte)
	if aok || bok {
		return aok && bok && string(ab) == string(bb)
	}
	return a == b
}
