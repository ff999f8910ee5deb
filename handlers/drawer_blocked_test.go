package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// blockedFixture loads one server that gating or approval keeps away:
// excluded and not_allowed are set on a user server as the gate would,
// pending and rejected come from the approval store of a project server.
func blockedFixture(t *testing.T, reason domain.BlockedReason) (*fixture, string) {
	t.Helper()
	s := newSettings()
	var r *domain.Reloader
	f := newFixture(t, withSettings(s, &r))
	switch reason {
	case domain.BlockedExcluded, domain.BlockedNotAllowed:
		c := stdio("files")
		c.Blocked = reason
		s.set(nil, c)
		reload(t, r)
		return f, "files"
	case domain.BlockedRejected:
		p := projectServer()
		if err := s.store.SaveApproval(t.Context(), domain.LocalUser, "/work/proj", p.Name, p.Fingerprint(), domain.Rejected); err != nil {
			t.Fatal(err)
		}
	}
	s.set(nil, projectServer())
	reload(t, r)
	return f, "proj"
}

// Every server has a drawer: a blocked one opens too, says why it does
// not run in words and offers the way out, instead of a 409 toast.
func TestBlockedServerDrawerSaysWhyAndTheWayOut(t *testing.T) {
	tests := []struct {
		reason     domain.BlockedReason
		why, out   string // in the English drawer
		approve    bool
		reject     bool
		configShow bool
	}{
		{domain.BlockedExcluded, "listed in mcp.excluded", "Delete files from mcp.excluded", false, false, false},
		{domain.BlockedNotAllowed, "--allowed-mcp-server-names", "Add files to mcp.allowed", false, false, false},
		{domain.BlockedPending, "Nobody has approved this one yet", "approve or reject it", true, true, true},
		{domain.BlockedRejected, "You rejected this configuration of proj", "Approve it below", true, false, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.reason), func(t *testing.T) {
			f, name := blockedFixture(t, tt.reason)
			r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, name), nil, "en")
			if r.status != http.StatusOK {
				t.Fatalf("status: got %d, want 200; body: %s", r.status, r.body)
			}
			d := r.doc.Find(`[data-testid="drawer"][data-server="` + name + `"]`)
			if d.Length() != 1 {
				t.Fatalf("got %d drawers, want 1", d.Length())
			}
			b := d.Find(`[data-testid="drawer-blocked"]`)
			if got, _ := b.Attr("data-reason"); got != string(tt.reason) {
				t.Errorf("blocked reason: got %q, want %q", got, tt.reason)
			}
			if _, hidden := b.Attr("hidden"); hidden {
				t.Errorf("the blocked section is hidden")
			}
			if got := b.Find(`[data-testid="drawer-blocked-why"]`).Text(); !strings.Contains(got, tt.why) {
				t.Errorf("why: got %q, want it to contain %q", got, tt.why)
			}
			outs := b.Find(`[data-testid="drawer-way-out"]`).Text()
			if !strings.Contains(outs, tt.out) {
				t.Errorf("way out: got %q, want it to contain %q", outs, tt.out)
			}
			if !strings.Contains(outs, "Remove…") {
				t.Errorf("way out: got %q, want it to name Remove", outs)
			}
			if got, _ := d.Find(`[data-testid="action-remove"]`).Attr("hx-get"); got != handlers.ServerPath(handlers.PathUIRemove, name) {
				t.Errorf("remove: got hx-get %q, want %q", got, handlers.ServerPath(handlers.PathUIRemove, name))
			}
			if n := d.Find(`[data-testid="action-restart"], [data-testid="action-enable"], [data-testid="action-disable"]`).Length(); n != 0 {
				t.Errorf("got %d restart/enable/disable buttons, want none: a blocked server has no process", n)
			}
			if d.Find(`[data-testid="drawer-settings"]`).Length() != 0 {
				t.Errorf("a blocked server offers its connection settings, which cannot be saved")
			}
			if got := d.Find(`[data-testid="caps-hidden"]`).Text(); !strings.Contains(got, "blocked") {
				t.Errorf("capabilities note: got %q, want it to say the server is blocked", got)
			}
			if got := d.Find(`[data-testid="drawer-target"]`).Text(); !strings.Contains(got, "npx") {
				t.Errorf("target: got %q, want the configured command", got)
			}
			wantButton(t, b, "drawer-blocked-approve", tt.approve, handlers.ServerPath(handlers.PathUIApprove, name))
			wantButton(t, b, "drawer-blocked-reject", tt.reject, handlers.ServerPath(handlers.PathUIReject, name))
			if got := b.Find(`[data-testid="drawer-blocked-config"]`).Length() == 1; got != tt.configShow {
				t.Errorf("configuration shown: got %v, want %v", got, tt.configShow)
			}
		})
	}
}

func wantButton(t *testing.T, in *goquery.Selection, testID string, want bool, post string) {
	t.Helper()
	btn := in.Find(`[data-testid="` + testID + `"]`)
	if got := btn.Length() == 1; got != want {
		t.Errorf("%s present: got %v, want %v", testID, got, want)
		return
	}
	if got, _ := btn.Attr("hx-post"); want && got != post {
		t.Errorf("%s posts to %q, want %q", testID, got, post)
	}
}

// The drawer's Approve sends the fingerprint of the configuration it
// shows, and the server connects.
func TestApproveFromBlockedDrawer(t *testing.T) {
	for _, reason := range []domain.BlockedReason{domain.BlockedPending, domain.BlockedRejected} {
		t.Run(string(reason), func(t *testing.T) {
			f, name := blockedFixture(t, reason)
			r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, name), nil, "en")
			form := shownFingerprint(t, r.doc.Find(`[data-testid="drawer-blocked"]`))
			resp := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIApprove, name), form, "en")
			if resp.status != http.StatusNoContent {
				t.Fatalf("approve: got %d, want 204; body %s", resp.status, resp.body)
			}
			if a := f.conn.Next(t); a.Config.Name != name {
				t.Errorf("after approval: attempt for %q, want %s", a.Config.Name, name)
			}
		})
	}
}

// A blocked server can be removed from its drawer: the entry leaves its
// file and the drawer closes.
func TestRemoveBlockedServerFromDrawer(t *testing.T) {
	f, name := blockedFixture(t, domain.BlockedExcluded)
	confirm := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIRemove, name), nil, "en")
	if confirm.status != http.StatusOK {
		t.Fatalf("confirm: got %d, want 200; body %s", confirm.status, confirm.body)
	}
	r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIRemove, name), nil, "en")
	if r.status != http.StatusOK {
		t.Fatalf("remove: got %d, want 200; body %s", r.status, r.body)
	}
	if got := f.editor.recorded(); len(got) != 1 || !strings.Contains(got[0], name) {
		t.Errorf("editor: got %q, want the entry of %s removed", got, name)
	}
}

// A command that reaches a blocked server anyway (a stale page) says in
// the toast what keeps it away, never "see the log".
func TestBlockedCommandToastSaysWhy(t *testing.T) {
	tests := []struct {
		reason domain.BlockedReason
		lang   string
		want   string
	}{
		{domain.BlockedExcluded, "en", "files is listed in mcp.excluded"},
		{domain.BlockedNotAllowed, "pt-BR", "files não está na lista de permitidos"},
		{domain.BlockedPending, "zh-Hans", "proj 正在等待你的批准"},
		{domain.BlockedRejected, "en", "You rejected proj"},
	}
	for _, tt := range tests {
		t.Run(string(tt.reason), func(t *testing.T) {
			f, name := blockedFixture(t, tt.reason)
			r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIRestart, name), nil, tt.lang)
			wantToast(t, r, http.StatusConflict, "blocked", tt.want)
			if strings.Contains(strings.ToLower(r.body), "log") || strings.Contains(r.body, "日志") {
				t.Errorf("the toast points at a log: %s", r.body)
			}
		})
	}
}
