package domain_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// mergeInput is a user file at /home/u/settings.json with the given
// servers, a project at /p, and an approval store with no records.
func mergeInput(user ...domain.ServerConfig) domain.MergeInput {
	return domain.MergeInput{
		User:       domain.Settings{Path: "/home/u/settings.json", Servers: user},
		HomeDir:    "/home/u",
		ProjectDir: "/p",
		Approvals:  &memApprovals{recs: map[string][2]string{}},
	}
}

func merge(t *testing.T, in domain.MergeInput) domain.LoadedConfig {
	t.Helper()
	loaded, err := domain.MergeSettings(context.Background(), in)
	if err != nil {
		t.Fatalf("MergeSettings: %v", err)
	}
	return loaded
}

func byName(t *testing.T, loaded domain.LoadedConfig, name string) domain.ServerConfig {
	t.Helper()
	for _, s := range loaded.Servers {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no server %q in %+v", name, loaded.Servers)
	return domain.ServerConfig{}
}

func TestMergeUserEntryWinsANameClash(t *testing.T) {
	mine := server("shared")
	mine.Command = "mine"
	theirs := server("shared")
	theirs.Command = "theirs"
	in := mergeInput(mine)
	in.Projects = []domain.ProjectSettings{{Path: "/p/.mcp.json", Servers: []domain.ServerConfig{theirs, server("extra")}}}

	loaded := merge(t, in)
	if len(loaded.Servers) != 2 {
		t.Fatalf("got %d servers, want shared and extra: %+v", len(loaded.Servers), loaded.Servers)
	}
	got := byName(t, loaded, "shared")
	if got.Command != "mine" || got.Blocked != domain.BlockedNone || got.WorkDir() != "/home/u" {
		t.Errorf("shared: command %q, blocked %q, dir %q; want the user's, unblocked, in the home", got.Command, got.Blocked, got.WorkDir())
	}
	want := []domain.ConfigSource{
		{Path: "/home/u/settings.json", Scope: domain.ScopeUser, Servers: []string{"shared"}},
		{Path: "/p/.mcp.json", Scope: domain.ScopeProject, Servers: []string{"extra"}},
	}
	if !reflect.DeepEqual(loaded.Sources, want) {
		t.Errorf("sources %+v, want %+v", loaded.Sources, want)
	}
}

func TestMergeProjectServersRunInTheProject(t *testing.T) {
	pinned := server("pinned")
	pinned.Cwd = "/srv"
	rel := server("rel")
	rel.Cwd = "tools"
	in := mergeInput(server("mine"))
	in.Projects = []domain.ProjectSettings{{Path: "/p/.mcp.json", Servers: []domain.ServerConfig{server("theirs"), pinned, rel}}}

	loaded := merge(t, in)
	want := map[string]string{"mine": "/home/u", "theirs": "/p", "pinned": "/srv", "rel": "/p/tools"}
	for name, dir := range want {
		if got := byName(t, loaded, name).WorkDir(); got != dir {
			t.Errorf("%s runs in %q, want %q", name, got, dir)
		}
	}
	if got := byName(t, loaded, "theirs").Written().Cwd; got != "" {
		t.Errorf("theirs: written cwd %q, want the entry as written (none)", got)
	}
}

func TestMergeUnreadableProjectFileIsAProblem(t *testing.T) {
	bad := &domain.SettingsError{File: "/p/.mcp.json", Message: "unexpected end of JSON"}
	skipped := &domain.SettingsError{File: "/p/.switchboard/settings.json", Message: "bad entry"}
	mine := &domain.SettingsError{File: "/home/u/settings.json", Message: "my bad entry"}
	in := mergeInput(server("mine"))
	in.User.Problems = []*domain.SettingsError{mine}
	in.Projects = []domain.ProjectSettings{
		{Path: "/p/.mcp.json", Unreadable: bad},
		{Path: "/p/.switchboard/settings.json", Servers: []domain.ServerConfig{server("other")}, Problems: []*domain.SettingsError{skipped}},
	}

	loaded := merge(t, in)
	if got := byName(t, loaded, "mine"); got.Blocked != domain.BlockedNone {
		t.Errorf("mine blocked %q; the user's servers run regardless", got.Blocked)
	}
	byName(t, loaded, "other")
	if len(loaded.Servers) != 2 {
		t.Errorf("got %d servers, want mine and other: %+v", len(loaded.Servers), loaded.Servers)
	}
	if want := []*domain.SettingsError{mine, bad, skipped}; !reflect.DeepEqual(loaded.Problems, want) {
		t.Errorf("problems %v, want %v", loaded.Problems, want)
	}
	for _, s := range loaded.Sources {
		if s.Path == "/p/.mcp.json" {
			t.Errorf("the unreadable file is listed as a source: %+v", s)
		}
	}
}

func TestMergeAppliesTheUserGate(t *testing.T) {
	in := mergeInput(server("a"), server("b"), server("c"))
	in.User.Gate = domain.Gate{Allowed: []string{"a", "b"}, AllowedSet: true, Excluded: []string{"b"}}
	in.Projects = []domain.ProjectSettings{{Path: "/p/.mcp.json", Servers: []domain.ServerConfig{server("d")}}}

	loaded := merge(t, in)
	want := map[string]domain.BlockedReason{
		"a": domain.BlockedNone, "b": domain.BlockedExcluded, "c": domain.BlockedNotAllowed, "d": domain.BlockedNotAllowed,
	}
	for name, reason := range want {
		if got := byName(t, loaded, name).Blocked; got != reason {
			t.Errorf("%s blocked %q, want %q", name, got, reason)
		}
	}
}

func TestMergeUpperBoundCapsTheUserGate(t *testing.T) {
	in := mergeInput(server("a"), server("b"))
	// The file allows both; the start-up flag allowed only a. The
	// bound's own Allowed is not the file's and must not count.
	in.User.Gate = domain.Gate{Allowed: []string{"a", "b"}, AllowedSet: true}
	in.UpperBound = domain.Gate{UpperBound: []string{"a"}, UpperBoundSet: true, Allowed: []string{}, AllowedSet: true}

	loaded := merge(t, in)
	if got := byName(t, loaded, "a").Blocked; got != domain.BlockedNone {
		t.Errorf("a blocked %q, want it to connect", got)
	}
	if got := byName(t, loaded, "b").Blocked; got != domain.BlockedNotAllowed {
		t.Errorf("b blocked %q, want %q: an edit may not widen the start-up list", got, domain.BlockedNotAllowed)
	}
}

func TestMergeProjectServersAwaitApproval(t *testing.T) {
	in := mergeInput(server("mine"))
	store := in.Approvals.(*memApprovals)
	approved, rejected := server("approved"), server("rejected")
	ctx := context.Background()
	if err := store.SaveApproval(ctx, domain.LocalUser, "/p", "approved", approved.Fingerprint(), domain.Approved); err != nil {
		t.Fatal(err)
	}
	if err := store.SaveApproval(ctx, domain.LocalUser, "/p", "rejected", rejected.Fingerprint(), domain.Rejected); err != nil {
		t.Fatal(err)
	}
	in.Projects = []domain.ProjectSettings{{Path: "/p/.mcp.json", Servers: []domain.ServerConfig{server("new"), approved, rejected}}}

	loaded := merge(t, in)
	want := map[string]domain.BlockedReason{
		"mine": domain.BlockedNone, "approved": domain.BlockedNone,
		"new": domain.BlockedPending, "rejected": domain.BlockedRejected,
	}
	for name, reason := range want {
		got := byName(t, loaded, name)
		if got.Blocked != reason {
			t.Errorf("%s blocked %q, want %q", name, got.Blocked, reason)
		}
		if asked := got.Approval != nil; asked != (reason != domain.BlockedNone) {
			t.Errorf("%s: approval request %+v with blocked %q", name, got.Approval, got.Blocked)
		}
	}
}

// failingApprovals is an approval store that cannot be read.
type failingApprovals struct{ memApprovals }

var errStoreDown = errors.New("store down")

func (*failingApprovals) Approval(context.Context, string, string, string) (domain.ApprovalDecision, string, bool, error) {
	return "", "", false, errStoreDown
}

func TestMergeFailsWhenApprovalsCannotBeRead(t *testing.T) {
	in := mergeInput(server("mine"))
	in.Approvals = &failingApprovals{}
	in.Projects = []domain.ProjectSettings{{Path: "/p/.mcp.json", Servers: []domain.ServerConfig{server("theirs")}}}
	if _, err := domain.MergeSettings(context.Background(), in); !errors.Is(err, errStoreDown) {
		t.Errorf("err %v, want it to wrap %v", err, errStoreDown)
	}
}
