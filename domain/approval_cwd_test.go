package domain_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// A working directory written inside the project but reached through a
// symbolic link that leads out of it runs the program outside: it is
// judged where it leads, on the real disk.
func TestCwdThroughASymlinkIsJudgedWhereItLeads(t *testing.T) {
	base := t.TempDir()
	project, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(project, "sub"), filepath.Join(outside, "deep")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(project, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(project, "sub"), filepath.Join(project, "inner")); err != nil {
		t.Fatal(err)
	}
	// A project reached through a link of its own is still the project.
	if err := os.Symlink(project, filepath.Join(base, "alias")); err != nil {
		t.Fatal(err)
	}
	outsideRisk := []domain.Risk{{Kind: domain.RiskCwdOutside, Field: domain.FieldCwd}}
	tests := []struct {
		name, root, cwd string
		want            []domain.Risk
	}{
		{"link-out-of-the-project", project, filepath.Join(project, "escape"), outsideRisk},
		{"below-a-link-out", project, filepath.Join(project, "escape", "deep"), outsideRisk},
		{"not-yet-created-below-a-link-out", project, filepath.Join(project, "escape", "new"), outsideRisk},
		{"dot-dot-after-a-link", project, filepath.Join(project, "escape") + "/../outside", outsideRisk},
		{"link-within-the-project", project, filepath.Join(project, "inner"), nil},
		{"plain-subdirectory", project, filepath.Join(project, "sub"), nil},
		{"not-yet-created-subdirectory", project, filepath.Join(project, "new", "dir"), nil},
		{"project-through-an-alias", filepath.Join(base, "alias"), filepath.Join(project, "sub"), nil},
		{"written-outside-leading-in-is-still-flagged", project, filepath.Join(base, "alias", "sub"), outsideRisk},
		{"outside-written-outside", project, outside, outsideRisk},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := domain.ServerConfig{Name: "s", Transport: domain.TransportStdio, Command: "srv", Cwd: tt.cwd}
			cfg.Raw = domain.RawConfig{Command: "srv", Cwd: tt.cwd}
			if got := domain.NewApprovalRequest(cfg, tt.root, settingsfile.ResolvePath).Risks; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cwd %s in %s: got %+v, want %+v", tt.cwd, tt.root, got, tt.want)
			}
		})
	}
}
