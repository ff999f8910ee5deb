package sqlite

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func auditOf(inv domain.Invocation) domain.AuditRecord {
	sum := sha256.Sum256(inv.Arguments)
	return domain.AuditRecord{
		InvocationID: inv.ID,
		Scope:        inv.Scope,
		ServerName:   inv.ServerName,
		Tool:         inv.Tool,
		ArgsSHA256:   hex.EncodeToString(sum[:]),
		StartedAt:    inv.StartedAt,
		EndedAt:      inv.EndedAt,
		Outcome:      inv.Status,
	}
}

func appendAudit(t *testing.T, s *InvocationStore, rec domain.AuditRecord) {
	t.Helper()
	if err := s.AppendAudit(t.Context(), rec); err != nil {
		t.Fatalf("AppendAudit(%s): %v", rec.InvocationID, err)
	}
}

func countAudit(t *testing.T, db *DB) int {
	t.Helper()
	var n int
	if err := db.read.QueryRowContext(t.Context(), `SELECT count(*) FROM audit_log`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAuditAppendsAndRefusesUpdates(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	s := db.InvocationStore()
	rec := auditOf(finished(scopeA, "x", 0))
	appendAudit(t, s, rec)
	appendAudit(t, s, rec) // a second trace of the same call is kept too

	var user, id, hash, outcome string
	var started, ended int64
	err := db.read.QueryRowContext(t.Context(), `SELECT user, invocation_id, args_sha256, outcome, started_at, ended_at
		FROM audit_log ORDER BY seq LIMIT 1`).Scan(&user, &id, &hash, &outcome, &started, &ended)
	if err != nil {
		t.Fatal(err)
	}
	if user != "alice" || id != "x" || hash != rec.ArgsSHA256 || outcome != "success" ||
		started != rec.StartedAt.UnixMilli() || ended != rec.EndedAt.UnixMilli() {
		t.Errorf("got %s %s %s %s %d %d, want the appended record", user, id, hash, outcome, started, ended)
	}
	_, err = db.write.ExecContext(t.Context(), `UPDATE audit_log SET outcome = 'error'`)
	if err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Errorf("UPDATE audit_log: got %v, want the trigger's append-only error", err)
	}
	if n := countAudit(t, db); n != 2 {
		t.Errorf("got %d audit rows, want 2", n)
	}
}

func TestAuditRefusesBadRecords(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	tests := []struct {
		name string
		edit func(*domain.AuditRecord)
	}{
		{"hash-not-hex", func(r *domain.AuditRecord) { r.ArgsSHA256 = strings.Repeat("z", 64) }},
		{"hash-too-short", func(r *domain.AuditRecord) { r.ArgsSHA256 = "abc" }},
		{"outcome-not-final", func(r *domain.AuditRecord) { r.Outcome = domain.InvocationRunning }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := auditOf(finished(scopeA, "x", 0))
			tt.edit(&rec)
			if err := s.AppendAudit(t.Context(), rec); err == nil {
				t.Error("got nil, want a constraint error")
			}
		})
	}
}

func TestPruneBefore(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	s := db.InvocationStore()
	old := finished(scopeA, "old", 0)              // ended t0+1s
	oldOther := finished(scopeB, "old-b", 0)       // another scope: pruned too
	recent := finished(scopeA, "recent", 60_000)   // ended t0+61s
	stillRunning := finished(scopeA, "running", 0) // started long ago, not ended
	stillRunning.Status, stillRunning.EndedAt = domain.InvocationRunning, time.Time{}
	for _, inv := range []domain.Invocation{old, oldOther, recent, stillRunning} {
		save(t, s, inv)
	}
	for _, inv := range []domain.Invocation{old, oldOther, recent} {
		appendAudit(t, s, auditOf(inv))
	}

	n, err := s.PruneBefore(t.Context(), t0.Add(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 { // two invocations, two audit rows
		t.Errorf("PruneBefore: got %d rows, want 4", n)
	}
	for _, gone := range []domain.Invocation{old, oldOther} {
		if _, err := s.Invocation(t.Context(), gone.Scope, gone.ID); !errors.Is(err, domain.ErrInvocationNotFound) {
			t.Errorf("%s after prune: got %v, want ErrInvocationNotFound", gone.ID, err)
		}
	}
	load(t, s, scopeA, "recent")
	load(t, s, scopeA, "running")
	if got := countAudit(t, db); got != 1 {
		t.Errorf("audit rows after prune: got %d, want 1", got)
	}
	// The cutoff is exclusive.
	if n, err := s.PruneBefore(t.Context(), recent.EndedAt); err != nil || n != 0 {
		t.Errorf("PruneBefore(the recent end): got %d, %v; want 0", n, err)
	}
}
