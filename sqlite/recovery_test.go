package sqlite

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// unfinishedCall returns a call of scope started at t0+startMs and left
// in status, with the progress it had reached.
func unfinishedCall(scope domain.Scope, id string, startMs int64, status domain.InvocationStatus) domain.Invocation {
	inv := finished(scope, id, startMs)
	inv.Status, inv.Result, inv.ResultSize, inv.EndedAt = status, nil, 0, time.Time{}
	inv.Progress = &domain.Progress{Progress: 3, Total: 100, Message: "step 3"}
	inv.Version = 7
	return inv
}

// leftBehind stores invs as a Switchboard process that then stops would:
// through a handle of its own that is closed, so its owner no longer runs.
func leftBehind(t *testing.T, dir string, invs ...domain.Invocation) {
	t.Helper()
	db, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, inv := range invs {
		save(t, db.InvocationStore(), inv)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

type auditRow struct {
	user, workspace, id, server, tool, hash, outcome string
	started, ended                                   int64
}

func auditRows(t *testing.T, db *DB) []auditRow {
	t.Helper()
	rows, err := db.read.QueryContext(t.Context(), `SELECT user, workspace, invocation_id, server, tool, args_sha256,
		outcome, started_at, ended_at FROM audit_log ORDER BY invocation_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []auditRow
	for rows.Next() {
		var r auditRow
		if err := rows.Scan(&r.user, &r.workspace, &r.id, &r.server, &r.tool, &r.hash, &r.outcome, &r.started, &r.ended); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func recoverAll(t *testing.T, s *InvocationStore, at time.Time) []domain.Invocation {
	t.Helper()
	ended, err := s.InterruptOrphans(t.Context(), domain.Interruption{EndedAt: at})
	if err != nil {
		t.Fatalf("InterruptOrphans: %v", err)
	}
	sort.Slice(ended, func(i, j int) bool { return ended[i].ID < ended[j].ID })
	return ended
}

func TestRecoveryEndsCallsLeftRunningInEveryScope(t *testing.T) {
	dir := t.TempDir()
	leftBehind(t, dir,
		unfinishedCall(scopeA, "a-running", 0, domain.InvocationRunning),
		unfinishedCall(scopeA, "a-pending", 10, domain.InvocationPending),
		unfinishedCall(scopeB, "b-running", 20, domain.InvocationRunning),
		finished(scopeA, "a-done", 30),
	)
	db := openTestDB(t, dir)
	s := db.InvocationStore()
	at := t0.Add(time.Hour)

	ended := recoverAll(t, s, at)
	if got, want := ids(ended), []string{"a-pending", "a-running", "b-running"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("interrupted: got %v, want %v", got, want)
	}
	for _, inv := range ended {
		stored := load(t, s, inv.Scope, inv.ID)
		if !reflect.DeepEqual(stored, inv) {
			t.Errorf("%s: returned %+v, stored %+v; want the same", inv.ID, inv, stored)
		}
		if inv.Status != domain.InvocationError || inv.ErrorCode != domain.ErrorCodeInterrupted ||
			inv.Error != domain.InterruptedMessage || !inv.EndedAt.Equal(at) || inv.Version != 8 {
			t.Errorf("%s: got status %s, code %q, error %q, ended %v, version %d; want error, %q, %q, %v, 8",
				inv.ID, inv.Status, inv.ErrorCode, inv.Error, inv.EndedAt, inv.Version,
				domain.ErrorCodeInterrupted, domain.InterruptedMessage, at)
		}
		if inv.Progress == nil || inv.Progress.Progress != 3 {
			t.Errorf("%s: progress %+v, want the last one kept (how far it got)", inv.ID, inv.Progress)
		}
	}
	if done := load(t, s, scopeA, "a-done"); done.Status != domain.InvocationSuccess || done.ErrorCode != "" {
		t.Errorf("a finished call: got %s %q, want it untouched", done.Status, done.ErrorCode)
	}

	// One audit row each, of the shape a call finished in the normal way
	// gets.
	var want []auditRow
	for _, inv := range ended {
		want = append(want, auditRow{inv.Scope.User, inv.Scope.Workspace, inv.ID, inv.ServerName, inv.Tool,
			domain.ArgumentsHash(inv.Arguments), "error", inv.StartedAt.UnixMilli(), at.UnixMilli()})
	}
	if got := auditRows(t, db); !reflect.DeepEqual(got, want) {
		t.Errorf("audit rows:\n got %+v\nwant %+v", got, want)
	}

	// Idempotent: nothing more to end, no second trace.
	if again := recoverAll(t, s, at.Add(time.Minute)); len(again) != 0 {
		t.Errorf("second recovery: got %v, want nothing", ids(again))
	}
	if n := countAudit(t, db); n != 3 {
		t.Errorf("audit rows after a second recovery: got %d, want 3", n)
	}

	// Retention can now prune them: they have an end.
	n, err := s.PruneBefore(t.Context(), at.Add(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if n != 3+3+1 { // three interrupted, three audit rows, the finished call
		t.Errorf("PruneBefore: got %d rows, want 7", n)
	}
	left, err := s.Invocations(t.Context(), scopeA, domain.InvocationFilter{})
	if err != nil || len(left) != 0 {
		t.Errorf("scope A after prune: got %v (%v), want nothing", ids(left), err)
	}
}

// A call must never look as though it ended before it started, whatever
// the clock says.
func TestRecoveryNeverEndsBeforeTheStart(t *testing.T) {
	dir := t.TempDir()
	leftBehind(t, dir, unfinishedCall(scopeA, "x", 0, domain.InvocationRunning))
	s := openTestDB(t, dir).InvocationStore()
	ended := recoverAll(t, s, t0.Add(-time.Hour))
	if len(ended) != 1 || !ended[0].EndedAt.Equal(ended[0].StartedAt) {
		t.Fatalf("got %+v, want one call ended at its start", ended)
	}
}

// Two processes may share one database (another project, the same data
// directory): starting one must not end the calls the other is running.
func TestRecoveryLeavesALiveProcessAlone(t *testing.T) {
	dir := t.TempDir()
	first := openTestDB(t, dir)
	save(t, first.InvocationStore(), unfinishedCall(scopeA, "live", 0, domain.InvocationRunning))
	second := openTestDB(t, dir)

	if ended := recoverAll(t, second.InvocationStore(), t0); len(ended) != 0 {
		t.Fatalf("recovery beside a live process: ended %v, want nothing", ids(ended))
	}
	// Its own calls are left too, unless the caller knows none runs.
	if ended := recoverAll(t, first.InvocationStore(), t0); len(ended) != 0 {
		t.Fatalf("recovery of the owner's own calls: ended %v, want nothing", ids(ended))
	}
	ended, err := first.InvocationStore().InterruptOrphans(t.Context(),
		domain.Interruption{Scope: &scopeA, ID: "live", IncludeOwn: true, EndedAt: t0})
	if err != nil || len(ended) != 1 {
		t.Fatalf("InterruptOrphans(IncludeOwn): got %v, %v; want the call", ids(ended), err)
	}
}

// Once the other process is gone, however it went, its calls are ended.
func TestRecoveryAfterTheOwnerStops(t *testing.T) {
	dir := t.TempDir()
	first, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	save(t, first.InvocationStore(), unfinishedCall(scopeA, "orphan", 0, domain.InvocationRunning))
	second := openTestDB(t, dir)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if ended := recoverAll(t, second.InvocationStore(), t0.Add(time.Second)); len(ended) != 1 {
		t.Fatalf("after the owner stopped: ended %v, want the orphan", ids(ended))
	}
}

// A crashed process leaves its lock file behind, unlocked; rows written
// before owners were recorded have none. Both count as stopped.
func TestRecoveryOfCrashedAndUnknownOwners(t *testing.T) {
	dir := t.TempDir()
	leftBehind(t, dir,
		unfinishedCall(scopeA, "crashed", 0, domain.InvocationRunning),
		unfinishedCall(scopeA, "old-binary", 1, domain.InvocationRunning),
		unfinishedCall(scopeA, "odd-owner", 2, domain.InvocationRunning))
	crashed := strings.Repeat("ab", 16)
	stale := filepath.Join(dir, ownersDir, crashed+".lock")
	db := openTestDB(t, dir)
	for id, owner := range map[string]string{"crashed": crashed, "old-binary": "", "odd-owner": "../../etc/passwd"} {
		if _, err := db.write.ExecContext(t.Context(), `UPDATE invocations SET owner = ? WHERE id = ?`, owner, id); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(stale, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ended := recoverAll(t, db.InvocationStore(), t0.Add(time.Second))
	if got, want := ids(ended), []string{"crashed", "odd-owner", "old-binary"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("interrupted: got %v, want %v", got, want)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the crashed owner's lock file: got %v, want it removed", err)
	}
}

func TestRecoveryOfOneCall(t *testing.T) {
	dir := t.TempDir()
	leftBehind(t, dir,
		unfinishedCall(scopeA, "target", 0, domain.InvocationRunning),
		unfinishedCall(scopeA, "other", 1, domain.InvocationRunning),
		unfinishedCall(scopeB, "target-b", 2, domain.InvocationRunning))
	db := openTestDB(t, dir)
	s := db.InvocationStore()
	sel := domain.Interruption{Scope: &scopeB, ID: "target", EndedAt: t0.Add(time.Second)}
	if ended, err := s.InterruptOrphans(t.Context(), sel); err != nil || len(ended) != 0 {
		t.Fatalf("another scope's id: got %v, %v; want nothing ended", ids(ended), err)
	}
	sel.Scope = &scopeA
	ended, err := s.InterruptOrphans(t.Context(), sel)
	if err != nil || len(ended) != 1 || ended[0].ID != "target" {
		t.Fatalf("got %v, %v; want only target", ids(ended), err)
	}
	if got := load(t, s, scopeA, "other"); got.Status != domain.InvocationRunning {
		t.Errorf("other: got %s, want it still running", got.Status)
	}
	if n := countAudit(t, db); n != 1 {
		t.Errorf("audit rows: got %d, want 1", n)
	}
}

// A crash leaves no pile of lock files: each start removes the dead ones.
func TestOpenSweepsLockFilesOfStoppedOwners(t *testing.T) {
	dir := t.TempDir()
	leftBehind(t, dir) // creates running/
	stale := filepath.Join(dir, ownersDir, strings.Repeat("cd", 16)+".lock")
	if err := os.WriteFile(stale, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	live := openTestDB(t, dir)
	openTestDB(t, dir)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale lock file: got %v, want it removed", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ownersDir, live.owner+".lock")); err != nil {
		t.Errorf("a live owner's lock file: got %v, want it kept", err)
	}
}
