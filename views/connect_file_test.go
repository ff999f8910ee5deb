package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

var fileState = domain.ClientConfigState{
	Path: "/home/a/.cursor/mcp.json", Exists: true, CanImport: true,
	Servers: []domain.ClientServer{
		{Name: "git", Transport: "stdio", Target: "uvx mcp-server-git " + strings.Repeat("x", 80)},
		{Name: "web", Transport: "sse", Target: "http://127.0.0.1:9/sse", Taken: true},
	},
}

func TestNewConnectFilePropsChecksAllButTakenNamesAndShortens(t *testing.T) {
	cursor, _ := domain.FindConnectClient("cursor")
	p := views.NewConnectFileProps(cursor, fileState, true, views.ConnectFileURLs{Review: "/r"})
	if len(p.Servers) != 2 || !p.Servers[0].Checked || p.Servers[1].Checked || !p.Servers[1].Taken {
		t.Fatalf("servers: got %+v", p.Servers)
	}
	if got := []rune(p.Servers[0].Target); len(got) != 60 || got[59] != '…' {
		t.Errorf("long target: got %q, want 60 runes ending in …", p.Servers[0].Target)
	}
	noImport := fileState
	noImport.CanImport = false
	if p := views.NewConnectFileProps(cursor, noImport, true, views.ConnectFileURLs{}); p.Servers[0].Checked {
		t.Errorf("without a settings file a server is checked for import")
	}
}

func TestNewConnectFileReview(t *testing.T) {
	for _, tc := range []struct {
		name        string
		write       bool
		chosen      []string
		nilReview   bool
		import_, tk string
	}{
		{"nothing-chosen-is-no-review", false, nil, true, "", ""},
		{"unknown-names-dropped", false, []string{"nosuch"}, true, "", ""},
		{"write-alone", true, nil, false, "", ""},
		{"taken-named-apart", false, []string{"web", "git"}, false, "git,web", "web"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := views.NewConnectFileReview(fileState, tc.write, tc.chosen)
			if (r == nil) != tc.nilReview {
				t.Fatalf("got %+v, want nil: %v", r, tc.nilReview)
			}
			if r != nil && (strings.Join(r.Import, ",") != tc.import_ || strings.Join(r.Taken, ",") != tc.tk || r.Write != tc.write) {
				t.Errorf("got %+v", r)
			}
		})
	}
}

func TestConnectFileNotesInChinese(t *testing.T) {
	cursor, _ := domain.FindConnectClient("cursor")
	p := views.NewConnectFileProps(cursor, fileState, true, views.ConnectFileURLs{})
	p.Notes = views.ConnectFileUndoneNotes(fileState.Path, domain.ClientUndoResult{Backup: "/b", Removed: []string{"git"}, Kept: []string{"<b>web</b>"}})
	doc := renderComponent(t, "zh-Hans", views.ConnectFile(p))
	status := doc.Find(`[role="status"][data-testid="connect-file-status"]`)
	if !strings.Contains(status.Text(), "已从 /b 恢复") || !strings.Contains(status.Text(), "<b>web</b>") {
		t.Errorf("status: got %q", status.Text())
	}
	if doc.Find(`b`).Length() != 0 {
		t.Errorf("a server name became markup")
	}
}
