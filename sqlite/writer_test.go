package sqlite

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestQueuedWriteIsSeenByTheNextRead(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	inv := finished(scopeA, "queued", 0)
	var failed error
	s.QueueInvocation(inv, func(err error) { failed = err })
	if got := load(t, s, scopeA, "queued"); got.Status != inv.Status || got.Version != inv.Version {
		t.Errorf("read after QueueInvocation: got status %s version %d, want %s %d", got.Status, got.Version, inv.Status, inv.Version)
	}
	list, err := s.Invocations(t.Context(), scopeA, domain.InvocationFilter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("Invocations after QueueInvocation: got %d rows, %v; want 1", len(list), err)
	}
	if failed != nil {
		t.Errorf("queued write failed: %v", failed)
	}
}

func TestCloseCommitsQueuedWrites(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	db.InvocationStore().QueueInvocation(finished(scopeA, "late", 0), nil)
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	again := openTestDB(t, dir)
	if got := load(t, again.InvocationStore(), scopeA, "late"); got.ID != "late" {
		t.Errorf("after reopening: got %+v, want the queued invocation", got)
	}
}

func TestFinishInvocationStoresStateAndAuditTogether(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	s := db.InvocationStore()
	inv := finished(scopeA, "done", 0)
	if err := s.FinishInvocation(t.Context(), inv, auditOf(inv)); err != nil {
		t.Fatalf("FinishInvocation: %v", err)
	}
	if got := load(t, s, scopeA, "done"); got.Status != domain.InvocationSuccess {
		t.Errorf("stored status %s, want success", got.Status)
	}
	if n := countAudit(t, db); n != 1 {
		t.Errorf("audit rows: got %d, want 1", n)
	}

	// An audit row the table refuses (a malformed hash) keeps the final
	// state out too: both or neither.
	bad := finished(scopeA, "refused", 10)
	rec := auditOf(bad)
	rec.ArgsSHA256 = "not a hash"
	if err := s.FinishInvocation(t.Context(), bad, rec); err == nil {
		t.Fatal("FinishInvocation with a refused audit row: got nil error")
	}
	if _, err := s.Invocation(t.Context(), scopeA, "refused"); err == nil {
		t.Error("the final state of a call whose audit row was refused was stored")
	}
	if n := countAudit(t, db); n != 1 {
		t.Errorf("audit rows after the refused one: got %d, want 1", n)
	}
}

// FinishInvocation returns only once the final state and its audit row
// are committed: another connection sees both at once, without the flush
// this store's own reads do, so a crash right after it loses neither. The
// call's pending state, queued and lingering, rides in the same commit.
func TestFinishInvocationIsCommittedWhenItReturns(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	s := db.InvocationStore()
	inv := finished(scopeA, "answered", 0)
	inv.Version = 2
	pending := inv
	pending.Status, pending.Result, pending.ResultSize, pending.EndedAt, pending.Version = domain.InvocationPending, nil, 0, time.Time{}, 1
	s.QueueInvocation(pending, nil)
	if err := s.FinishInvocation(t.Context(), inv, auditOf(inv)); err != nil {
		t.Fatalf("FinishInvocation: %v", err)
	}
	var status string
	var audits int
	err := db.read.QueryRowContext(t.Context(), `SELECT status, (SELECT count(*) FROM audit_log WHERE invocation_id = ?)
		FROM invocations WHERE id = ?`, inv.ID, inv.ID).Scan(&status, &audits)
	if err != nil {
		t.Fatalf("read from another connection: %v", err)
	}
	if status != string(domain.InvocationSuccess) || audits != 1 {
		t.Errorf("committed when FinishInvocation returned: got %s with %d audit rows, want success with 1", status, audits)
	}
}

// QueueFinish hands the final state in at once: a read before its commit
// was waited for already sees it, and the wait then reports the commit.
func TestQueueFinishIsSeenBeforeItsWait(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	s := db.InvocationStore()
	inv := finished(scopeA, "queued-final", 0)
	committed := s.QueueFinish(inv, auditOf(inv), func(err error) { t.Errorf("commit: %v", err) })
	if got := load(t, s, scopeA, inv.ID); got.Status != domain.InvocationSuccess {
		t.Errorf("read after QueueFinish: got %s, want success", got.Status)
	}
	if err := committed(t.Context()); err != nil {
		t.Fatalf("wait for the commit: %v", err)
	}
	if n := countAudit(t, db); n != 1 {
		t.Errorf("audit rows: got %d, want 1", n)
	}
}

// A final state that the invocations table refuses (its call key is
// another call's) takes its audit row back with it, while the other
// writes committed in the same batch stay.
func TestRefusedFinalStateLeavesNoAuditRowAndSparesTheBatch(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	s := db.InvocationStore()
	save(t, s, finished(scopeA, "first", 0))
	clash := finished(scopeA, "clash", 10)
	clash.Key = finished(scopeA, "first", 0).Key
	const others = 8
	var wg sync.WaitGroup
	errs := make([]error, others+1)
	for i := range others + 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inv := finished(scopeA, fmt.Sprintf("other-%d", i), int64(20+i))
			if i == others {
				inv = clash
			}
			errs[i] = s.FinishInvocation(t.Context(), inv, auditOf(inv))
		}()
	}
	wg.Wait()
	for i, err := range errs[:others] {
		if err != nil {
			t.Errorf("other-%d: %v", i, err)
		}
	}
	if err := errs[others]; err == nil || !strings.Contains(err.Error(), "call key") {
		t.Errorf("the clashing call: got %v, want a taken call key", err)
	}
	if n := countAudit(t, db); n != others {
		t.Errorf("audit rows: got %d, want %d (none for the refused call)", n, others)
	}
}

// Many callers at once all get their writes committed, and an
// invocation's newest version wins when several are in one batch.
func TestConcurrentWritesAllCommitNewestWins(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	const calls = 32
	var wg sync.WaitGroup
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			final := finished(scopeA, fmt.Sprintf("c%02d", i), int64(i))
			final.Version = 3
			early := final
			early.Status, early.Version = domain.InvocationRunning, 2
			s.QueueInvocation(early, func(err error) { t.Errorf("queued %s: %v", early.ID, err) })
			if err := s.FinishInvocation(t.Context(), final, auditOf(final)); err != nil {
				t.Errorf("FinishInvocation(%s): %v", final.ID, err)
			}
			s.QueueInvocation(early, nil) // late and older: must not win
		}()
	}
	wg.Wait()
	list, err := s.Invocations(t.Context(), scopeA, domain.InvocationFilter{Limit: MaxInvocationLimit})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != calls {
		t.Fatalf("stored %d invocations, want %d", len(list), calls)
	}
	for _, inv := range list {
		if inv.Status != domain.InvocationSuccess || inv.Version != 3 {
			t.Errorf("%s: got %s version %d, want success version 3", inv.ID, inv.Status, inv.Version)
		}
	}
}
