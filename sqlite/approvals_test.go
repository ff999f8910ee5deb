package sqlite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

func TestApprovalsRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s := db.ApprovalStore()
	if _, _, found, err := s.Approval(ctx, "local", "/p", "x"); found || err != nil {
		t.Fatalf("empty store found %v, %v", found, err)
	}
	h1, h2 := strings.Repeat("a", 64), strings.Repeat("b", 64)
	if err := s.SaveApproval(ctx, "local", "/p", "x", h1, domain.Approved); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveApproval(ctx, "local", "/p", "x", h2, domain.Rejected); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d, hash, found, err := db.ApprovalStore().Approval(ctx, "local", "/p", "x")
	if err != nil || !found || d != domain.Rejected || hash != h2 {
		t.Errorf("Approval = %s %s %v %v; want the newest decision after a restart", d, hash, found, err)
	}
	if _, _, found, _ := db.ApprovalStore().Approval(ctx, "local", "/other", "x"); found {
		t.Errorf("another project sees the decision")
	}
	if err := db.ApprovalStore().SaveApproval(ctx, "local", "/p", "y", "short", domain.Approved); err == nil {
		t.Errorf("a malformed hash was stored")
	}
}
