package sqlite_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

var (
	scopeA1 = domain.Scope{User: "alice", Workspace: "ws-1"}
	scopeB2 = domain.Scope{User: "bob", Workspace: "ws-2"}
)

// at is a fixed instant with sub-millisecond parts, which the store drops.
var at = time.Date(2025, 3, 14, 15, 9, 26, 535_897_932, time.UTC)

// openStore opens a database in dir and closes it when the test ends.
func openStore(t *testing.T, dir string) *sqlite.ServerStore {
	t.Helper()
	db, err := sqlite.Open(t.Context(), dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db.ServerStore()
}

func mustSave(t *testing.T, s *sqlite.ServerStore, scope domain.Scope, recs ...domain.ServerRecord) {
	t.Helper()
	for _, rec := range recs {
		if err := s.SaveServerRecord(t.Context(), scope, rec); err != nil {
			t.Fatalf("SaveServerRecord(%v, %s): %v", scope, rec.Name, err)
		}
	}
}

func mustLoad(t *testing.T, s *sqlite.ServerStore, scope domain.Scope) map[string]domain.ServerRecord {
	t.Helper()
	got, err := s.ServerRecords(t.Context(), scope)
	if err != nil {
		t.Fatalf("ServerRecords(%v): %v", scope, err)
	}
	return got
}

// sameRecords compares by value, with times compared as instants.
func sameRecords(got, want map[string]domain.ServerRecord) bool {
	return maps.EqualFunc(got, want, func(a, b domain.ServerRecord) bool {
		return a.Name == b.Name && a.StateSet == b.StateSet && a.DisabledReason == b.DisabledReason &&
			reflect.DeepEqual(a.Overrides, b.Overrides) && a.UpdatedAt.Equal(b.UpdatedAt)
	})
}

func TestServerRecordsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		rec  domain.ServerRecord
		want domain.ServerRecord
	}{
		{
			"enabled-server-keeps-milliseconds",
			domain.ServerRecord{Name: "github", UpdatedAt: at},
			domain.ServerRecord{Name: "github", UpdatedAt: at.Truncate(time.Millisecond)},
		},
		{
			"manually-disabled",
			domain.ServerRecord{Name: "fs", DisabledReason: domain.DisabledManual, UpdatedAt: at},
			domain.ServerRecord{Name: "fs", DisabledReason: domain.DisabledManual, UpdatedAt: at.Truncate(time.Millisecond)},
		},
		{
			"auto-disabled-non-utc-zone",
			domain.ServerRecord{Name: "flaky", DisabledReason: domain.DisabledAuto, UpdatedAt: at.In(time.FixedZone("UTC+9", 9*3600))},
			domain.ServerRecord{Name: "flaky", DisabledReason: domain.DisabledAuto, UpdatedAt: at.Truncate(time.Millisecond)},
		},
		{
			"state-chosen-with-overrides",
			domain.ServerRecord{Name: "tuned", StateSet: true, Overrides: domain.SettingsOverride{AutoReconnect: ptr(false), KeepAlive: ptr(15 * time.Second)}, UpdatedAt: at},
			domain.ServerRecord{Name: "tuned", StateSet: true, Overrides: domain.SettingsOverride{AutoReconnect: ptr(false), KeepAlive: ptr(15 * time.Second)}, UpdatedAt: at.Truncate(time.Millisecond)},
		},
		{
			"keep-alive-off-is-not-unset",
			domain.ServerRecord{Name: "quiet", Overrides: domain.SettingsOverride{KeepAlive: ptr(time.Duration(0))}, UpdatedAt: at},
			domain.ServerRecord{Name: "quiet", Overrides: domain.SettingsOverride{KeepAlive: ptr(time.Duration(0))}, UpdatedAt: at.Truncate(time.Millisecond)},
		},
		{
			"unicode-name",
			domain.ServerRecord{Name: "日本語 server", UpdatedAt: at},
			domain.ServerRecord{Name: "日本語 server", UpdatedAt: at.Truncate(time.Millisecond)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openStore(t, t.TempDir())
			mustSave(t, s, scopeA1, tt.rec)
			got := mustLoad(t, s, scopeA1)
			want := map[string]domain.ServerRecord{tt.want.Name: tt.want}
			if !sameRecords(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestServerRecordsOfEmptyScopeIsEmptyMap(t *testing.T) {
	s := openStore(t, t.TempDir())
	got := mustLoad(t, s, scopeA1)
	if got == nil || len(got) != 0 {
		t.Errorf("got %#v, want an empty non-nil map", got)
	}
}

func TestSaveServerRecordReplaces(t *testing.T) {
	s := openStore(t, t.TempDir())
	mustSave(t, s, scopeA1,
		domain.ServerRecord{Name: "github", DisabledReason: domain.DisabledAuto, UpdatedAt: at},
		domain.ServerRecord{Name: "github", DisabledReason: domain.DisabledNone, UpdatedAt: at.Add(time.Hour)},
	)
	got := mustLoad(t, s, scopeA1)
	want := map[string]domain.ServerRecord{
		"github": {Name: "github", DisabledReason: domain.DisabledNone, UpdatedAt: at.Add(time.Hour).Truncate(time.Millisecond)},
	}
	if !sameRecords(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestSaveServerRecordRefusesUnknownReason(t *testing.T) {
	s := openStore(t, t.TempDir())
	err := s.SaveServerRecord(t.Context(), scopeA1, domain.ServerRecord{Name: "github", DisabledReason: "bored", UpdatedAt: at})
	if err == nil {
		t.Fatal("got no error, want the CHECK constraint to refuse the reason")
	}
	if got := mustLoad(t, s, scopeA1); len(got) != 0 {
		t.Errorf("got %v stored, want nothing", got)
	}
}

// T8 multi-tenant: the same server name in two scopes is two records, and
// no read, write or purge in one scope touches the other.
func TestScopesAreIsolated(t *testing.T) {
	s := openStore(t, t.TempDir())
	sameUserOtherWorkspace := domain.Scope{User: scopeA1.User, Workspace: scopeB2.Workspace}
	mustSave(t, s, scopeA1,
		domain.ServerRecord{Name: "github", DisabledReason: domain.DisabledManual, UpdatedAt: at},
		domain.ServerRecord{Name: "only-alice", UpdatedAt: at},
	)
	mustSave(t, s, scopeB2, domain.ServerRecord{Name: "github", DisabledReason: domain.DisabledAuto, UpdatedAt: at})
	mustSave(t, s, sameUserOtherWorkspace, domain.ServerRecord{Name: "github", UpdatedAt: at})

	if err := s.PurgeServer(t.Context(), scopeB2, "github"); err != nil {
		t.Fatal(err)
	}

	ms := at.Truncate(time.Millisecond)
	tests := []struct {
		scope domain.Scope
		want  map[string]domain.ServerRecord
	}{
		{scopeA1, map[string]domain.ServerRecord{
			"github":     {Name: "github", DisabledReason: domain.DisabledManual, UpdatedAt: ms},
			"only-alice": {Name: "only-alice", UpdatedAt: ms},
		}},
		{scopeB2, map[string]domain.ServerRecord{}},
		{sameUserOtherWorkspace, map[string]domain.ServerRecord{"github": {Name: "github", UpdatedAt: ms}}},
		{domain.Scope{User: scopeB2.User, Workspace: scopeA1.Workspace}, map[string]domain.ServerRecord{}},
	}
	for _, tt := range tests {
		if got := mustLoad(t, s, tt.scope); !sameRecords(got, tt.want) {
			t.Errorf("scope %v: got %v, want %v", tt.scope, got, tt.want)
		}
	}
}

func TestPurgeServerRemovesOnlyThatServer(t *testing.T) {
	tests := []struct {
		name      string
		purge     string
		wantNames []string
	}{
		{"purge-one-keeps-others", "fs", []string{"github", "slack"}},
		{"purge-unknown-is-no-error", "never-saved", []string{"fs", "github", "slack"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openStore(t, t.TempDir())
			for _, name := range []string{"fs", "github", "slack"} {
				mustSave(t, s, scopeA1, domain.ServerRecord{Name: name, UpdatedAt: at})
			}
			if err := s.PurgeServer(t.Context(), scopeA1, tt.purge); err != nil {
				t.Fatalf("PurgeServer(%s): %v", tt.purge, err)
			}
			got := slices.Sorted(maps.Keys(mustLoad(t, s, scopeA1)))
			if !slices.Equal(got, tt.wantNames) {
				t.Errorf("got %v, want %v", got, tt.wantNames)
			}
		})
	}
}

func TestRecordsSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	db, err := sqlite.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, db.ServerStore(), scopeA1, domain.ServerRecord{Name: "github", DisabledReason: domain.DisabledManual, UpdatedAt: at})
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	got := mustLoad(t, openStore(t, dir), scopeA1)
	want := map[string]domain.ServerRecord{
		"github": {Name: "github", DisabledReason: domain.DisabledManual, UpdatedAt: at.Truncate(time.Millisecond)},
	}
	if !sameRecords(got, want) {
		t.Errorf("after restart: got %v, want %v", got, want)
	}
}

func TestConcurrentSavesAllLand(t *testing.T) {
	s := openStore(t, t.TempDir())
	const writers, each = 16, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*2)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				rec := domain.ServerRecord{Name: fmt.Sprintf("w%02d-s%02d", w, i), UpdatedAt: at}
				if err := s.SaveServerRecord(t.Context(), scopeA1, rec); err != nil {
					errs <- err
				}
				// Everyone also fights over one row.
				if err := s.SaveServerRecord(t.Context(), scopeA1, domain.ServerRecord{Name: "shared", UpdatedAt: at.Add(time.Duration(w) * time.Millisecond)}); err != nil {
					errs <- err
				}
			}
		})
		wg.Go(func() {
			if _, err := s.ServerRecords(t.Context(), scopeA1); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent call: %v", err)
	}
	if got, want := len(mustLoad(t, s, scopeA1)), writers*each+1; got != want {
		t.Errorf("records: got %d, want %d", got, want)
	}
}

// Two handles on one file stand in for two Switchboard processes: they do
// not share the in-process writer, so busy_timeout is what keeps them from
// failing with SQLITE_BUSY.
func TestTwoHandlesOnOneFile(t *testing.T) {
	dir := t.TempDir()
	stores := []*sqlite.ServerStore{openStore(t, dir), openStore(t, dir)}
	const each = 50
	var wg sync.WaitGroup
	errs := make(chan error, len(stores)*each)
	for h, s := range stores {
		wg.Go(func() {
			for i := range each {
				rec := domain.ServerRecord{Name: fmt.Sprintf("h%d-s%02d", h, i), UpdatedAt: at}
				if err := s.SaveServerRecord(t.Context(), scopeA1, rec); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("save: %v", err)
	}
	for h, s := range stores {
		if got, want := len(mustLoad(t, s, scopeA1)), len(stores)*each; got != want {
			t.Errorf("handle %d sees %d records, want %d", h, got, want)
		}
	}
}
