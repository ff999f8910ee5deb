package sqlite

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestInvocationKeepsSourceAndClient(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	scope := domain.Scope{User: "alice", Workspace: "w1"}
	gw := finished(scope, "gw", 0)
	gw.Source, gw.Client = domain.SourceGateway, domain.ClientIdentity{Name: "Claude Code", Version: "1.2", Token: "laptop"}
	api := finished(scope, "api", 1)
	api.Source = domain.SourceAPI
	other := finished(scope, "other-client", 2)
	other.Source, other.Client = domain.SourceGateway, domain.ClientIdentity{Name: "Cursor"}
	for _, inv := range []domain.Invocation{gw, api, other, finished(scope, "dash", 3)} {
		save(t, s, inv)
	}
	if got := load(t, s, scope, "gw"); got.Source != domain.SourceGateway || got.Client != gw.Client {
		t.Errorf("round trip: got %q %+v, want %q %+v", got.Source, got.Client, gw.Source, gw.Client)
	}
	tests := []struct {
		name string
		f    domain.InvocationFilter
		want string
	}{
		{"gateway", domain.InvocationFilter{Source: domain.SourceGateway}, "other-client,gw"},
		{"gateway-one-client", domain.InvocationFilter{Source: domain.SourceGateway, Client: "Claude Code"}, "gw"},
		{"api", domain.InvocationFilter{Source: domain.SourceAPI}, "api"},
		{"dashboard", domain.InvocationFilter{Source: domain.SourceDashboard}, "dash"},
		{"no-such-client", domain.InvocationFilter{Client: "nobody"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			invs, err := s.Invocations(t.Context(), scope, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, inv := range invs {
				ids = append(ids, inv.ID)
			}
			if got := strings.Join(ids, ","); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestApprovalStatusesAreStoredAndDeniedIsFinished(t *testing.T) {
	s := openTestDB(t, t.TempDir()).InvocationStore()
	scope := domain.Scope{User: "alice", Workspace: "w1"}
	held := finished(scope, "held", 0)
	held.Status, held.Source, held.Result, held.ResultSize = domain.InvocationAwaitingApproval, domain.SourceGateway, nil, 0
	held.EndedAt = time.Time{}
	save(t, s, held)
	if got := load(t, s, scope, "held"); got.Status != domain.InvocationAwaitingApproval {
		t.Errorf("held: got %s", got.Status)
	}
	denied := finished(scope, "denied", 1)
	denied.Status, denied.Error = domain.InvocationDenied, domain.DeniedMessage
	save(t, s, denied)
	if err := s.AppendAudit(t.Context(), domain.AuditRecord{InvocationID: "denied", Scope: scope, ServerName: "demo", Tool: "echo",
		ArgsSHA256: domain.ArgumentsHash(denied.Arguments), StartedAt: denied.StartedAt, EndedAt: denied.EndedAt,
		Outcome: domain.InvocationDenied}); err != nil {
		t.Fatalf("audit a denied call: %v", err)
	}
	if got := load(t, s, scope, "denied"); got.Status != domain.InvocationDenied {
		t.Errorf("denied: got %s", got.Status)
	}
	// A denied call is over; a held one is not, and a stopped process
	// can never ask about it again.
	ended, err := s.InterruptOrphans(t.Context(), domain.Interruption{IncludeOwn: true, EndedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	if len(ended) != 1 || ended[0].ID != "held" {
		t.Errorf("recovery ended %v, want only the held call", ended)
	}
}

func TestMigrationKeepsEarlierInvocationsAsTheDashboards(t *testing.T) {
	path := filepath.Join(t.TempDir(), fileName)
	w := openWriter(t, path)
	before := fstest.MapFS{}
	names, err := fs.Glob(migrations(), "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if n < "0007" {
			b, err := fs.ReadFile(migrations(), n)
			if err != nil {
				t.Fatal(err)
			}
			before[n] = &fstest.MapFile{Data: b}
		}
	}
	if err := migrate(t.Context(), w, before); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(t.Context(), `INSERT INTO invocations (user, workspace, id, conversation_id, message_id,
		tool_call_id, server, tool, arguments, status, started_at, version) VALUES ('u', 'w', 'old', 'c', 'm', 't', 'demo', 'echo', '{}', 'success', 1, 1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(t.Context(), `INSERT INTO audit_log (user, workspace, invocation_id, server, tool, args_sha256,
		started_at, ended_at, outcome) VALUES ('u', 'w', 'old', 'demo', 'echo', ?, 1, 2, 'success')`, strings.Repeat("a", 64)); err != nil {
		t.Fatal(err)
	}
	if err := migrate(t.Context(), w, migrations()); err != nil {
		t.Fatalf("migrate to 0007: %v", err)
	}
	var source string
	if err := w.QueryRowContext(t.Context(), `SELECT source FROM invocations WHERE id = 'old'`).Scan(&source); err != nil {
		t.Fatal(err)
	}
	if source != domain.SourceDashboard {
		t.Errorf("source of an earlier call: got %q, want %q", source, domain.SourceDashboard)
	}
	// The audit log stays append-only and its sequence is not reused.
	if _, err := w.ExecContext(t.Context(), `UPDATE audit_log SET tool = 'x'`); err == nil {
		t.Error("audit_log accepted an UPDATE after the rebuild")
	}
	if _, err := w.ExecContext(t.Context(), `INSERT INTO audit_log (user, workspace, invocation_id, server, tool, args_sha256,
		started_at, ended_at, outcome) VALUES ('u', 'w', 'new', 'demo', 'echo', ?, 1, 2, 'denied')`, strings.Repeat("b", 64)); err != nil {
		t.Fatal(err)
	}
	var seq int
	if err := w.QueryRowContext(t.Context(), `SELECT seq FROM audit_log WHERE invocation_id = 'new'`).Scan(&seq); err != nil {
		t.Fatal(err)
	}
	if seq != 2 {
		t.Errorf("seq of the next audit row: got %d, want 2", seq)
	}
}
