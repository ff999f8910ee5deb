package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

const projectFile = "/work/proj/.mcp.json"

// approvalStore is an in-memory domain.ApprovalStore.
type approvalStore struct {
	mu   sync.Mutex // guards recs
	recs map[string][2]string
}

func (s *approvalStore) Approval(_ context.Context, user, root, server string) (domain.ApprovalDecision, string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recs[user+"|"+root+"|"+server]
	return domain.ApprovalDecision(r[0]), r[1], ok, nil
}

func (s *approvalStore) SaveApproval(_ context.Context, user, root, server, hash string, d domain.ApprovalDecision) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recs[user+"|"+root+"|"+server] = [2]string{string(d), hash}
	return nil
}

// settings is a scripted settings file: the servers it defines (project
// ones gated by the approval store) or the error loading it fails with.
type settings struct {
	mu      sync.Mutex // guards servers, project and err
	servers []domain.ServerConfig
	project map[string]bool
	err     error
	store   *approvalStore
}

func (s *settings) set(err error, cfgs ...domain.ServerConfig) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err, s.servers = err, cfgs
}

func (s *settings) load(ctx context.Context) (domain.LoadedConfig, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return domain.LoadedConfig{}, s.err
	}
	gated, err := domain.GateApprovals(ctx, s.store, domain.LocalUser, "/work/proj", nil, s.servers, s.project)
	return domain.LoadedConfig{Servers: gated}, err
}

// withSettings wires a real reloader and approvals over the fixture's fleet.
func withSettings(s *settings, r **domain.Reloader) func(*handlers.Options) {
	return func(o *handlers.Options) {
		*r = domain.NewReloader(domain.ReloaderOptions{Load: s.load, Fleet: o.Fleet})
		o.Config = *r
		o.Approvals = &domain.Approvals{Store: s.store, Fleet: o.Fleet, Reloader: *r, User: domain.LocalUser, ProjectRoot: "/work/proj"}
	}
}

func newSettings() *settings {
	return &settings{project: map[string]bool{"proj": true}, store: &approvalStore{recs: map[string][2]string{}}}
}

func projectServer() domain.ServerConfig {
	c := stdio("proj")
	c.Source = projectFile
	return c
}

func reload(t *testing.T, r *domain.Reloader) {
	t.Helper()
	if _, _, err := r.Reload(t.Context()); err != nil {
		t.Fatalf("reload: %v", err)
	}
}

func TestPageEventsPushConfigBanner(t *testing.T) {
	s := newSettings()
	var r *domain.Reloader
	f := newFixture(t, withSettings(s, &r))
	reload(t, r)

	st := f.openPageEvents(t, http.Header{"Accept-Language": {"en"}})
	doc := fragment(t, st.next(t))
	if !isFullState(doc) {
		t.Fatalf("first event is not the full state")
	}
	slot := doc.Find(`#config-banner-slot[hx-swap-oob="outerHTML"]`)
	if slot.Length() != 1 || slot.Children().Length() != 0 {
		t.Fatalf("connect: want an empty banner slot swap, got %d slots holding %q", slot.Length(), slot.Text())
	}

	s.set(&domain.SettingsError{File: "/home/dev/<i>mcp</i>.json", Line: 4, Column: 9, Server: "files", Message: "unexpected <b>}</b>"})
	reload(t, r)
	fr, _ := st.until(t, "the banner", func(fr sseFrame) bool {
		return fragment(t, fr).Find(`[data-testid="config-banner"]`).Length() == 1
	})
	doc = fragment(t, fr)
	if doc.Find("i, b").Length() != 0 {
		t.Errorf("settings error text became markup")
	}
	if got := doc.Find(`[data-testid="config-banner-where"]`).Text(); !containsAll(got, "/home/dev/<i>mcp</i>.json", "4:9", "files") {
		t.Errorf("where: got %q", got)
	}
	if got := doc.Find(`[data-testid="config-banner-message"]`).Text(); got != "unexpected <b>}</b>" {
		t.Errorf("message: got %q", got)
	}

	s.set(nil)
	reload(t, r)
	st.until(t, "the banner cleared", func(fr sseFrame) bool {
		d := fragment(t, fr)
		return d.Find("#config-banner-slot").Length() == 1 && d.Find(`[data-testid="config-banner"]`).Length() == 0
	})
}

func TestPageEventsNoBannerSlotWithoutReloader(t *testing.T) {
	f := newFixture(t)
	doc := fragment(t, f.openPageEvents(t, nil).next(t))
	if doc.Find("#config-banner-slot").Length() != 0 {
		t.Errorf("demo mode pushed a banner slot")
	}
	if doc.Find(`#approval-slot[hx-swap-oob]`).Length() != 1 {
		t.Errorf("the first event does not reset the approval slot")
	}
}

func TestDashboardRendersBannerFromReloader(t *testing.T) {
	s := newSettings()
	s.set(&domain.SettingsError{File: "/x.json", Line: 1, Column: 2, Message: "bad"})
	var r *domain.Reloader
	f := newFixture(t, withSettings(s, &r))
	reload(t, r)
	resp := f.ui(t, http.MethodGet, handlers.PathDashboard, nil, "en")
	if resp.doc.Find(`main #config-banner-slot [data-testid="config-banner"][role="alert"]`).Length() != 1 {
		t.Errorf("the page has no banner for a bad settings file")
	}
}

func TestApprovalDialogFollowsPendingSet(t *testing.T) {
	s := newSettings()
	var r *domain.Reloader
	f := newFixture(t, withSettings(s, &r))
	reload(t, r)
	st := f.openPageEvents(t, http.Header{"Accept-Language": {"en"}})
	if d := fragment(t, st.next(t)); d.Find(`#approval-slot[hx-swap-oob]`).Children().Length() != 0 {
		t.Fatalf("connect: want an empty approval slot")
	}

	s.set(nil, projectServer())
	reload(t, r)
	fr, _ := st.until(t, "the approval dialog", func(fr sseFrame) bool {
		return fragment(t, fr).Find(`[data-testid="approval-dialog"]`).Length() == 1
	})
	d := fragment(t, fr).Find(`#approval-slot[hx-swap-oob="outerHTML"] [data-testid="approval-dialog"][role="alertdialog"]`)
	if d.Length() != 1 {
		t.Fatalf("the dialog is not an OOB swap of #approval-slot")
	}
	if got := d.Find(`[data-testid="approval-source"]`).Text(); got != projectFile {
		t.Errorf("source: got %q, want %q", got, projectFile)
	}
	if got := d.Find(`[data-testid="approval-command"] [data-testid="approval-value"]`).Text(); got != projectServer().Command {
		t.Errorf("command: got %q, want %q", got, projectServer().Command)
	}
	if got, _ := d.Find(`[data-testid="approval-approve"]`).Attr("hx-post"); got != handlers.ServerPath(handlers.PathUIApprove, "proj") {
		t.Errorf("approve hx-post: got %q", got)
	}

	resp := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIApprove, "proj"), shownFingerprint(t, d), "en")
	if resp.status != http.StatusNoContent {
		t.Fatalf("approve: got %d, want 204; body %s", resp.status, resp.body)
	}
	st.until(t, "the dialog cleared", func(fr sseFrame) bool {
		d := fragment(t, fr)
		return d.Find("#approval-slot").Length() == 1 && d.Find(`[data-testid="approval-dialog"]`).Length() == 0
	})
	if a := f.conn.Next(t); a.Config.Name != "proj" {
		t.Errorf("after approval: attempt for %q, want proj", a.Config.Name)
	}
}

func TestRejectKeepsServerAway(t *testing.T) {
	s := newSettings()
	s.set(nil, projectServer())
	var r *domain.Reloader
	f := newFixture(t, withSettings(s, &r))
	reload(t, r)
	page := f.ui(t, http.MethodGet, handlers.PathDashboard, nil, "en")
	dialog := page.doc.Find(`#approval-slot [data-testid="approval-dialog"]`)
	if dialog.Length() != 1 {
		t.Fatalf("the page has no approval dialog for a pending server")
	}

	resp := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIReject, "proj"), shownFingerprint(t, dialog), "en")
	if resp.status != http.StatusNoContent {
		t.Fatalf("reject: got %d, want 204; body %s", resp.status, resp.body)
	}
	got := waitFor(t, f.fleet.Hub(), "proj", "rejected", func(s domain.Status) bool { return s.BlockedReason == domain.BlockedRejected })
	if got.State == domain.StateConnected {
		t.Errorf("a rejected server connected")
	}

}

func TestApproveWhatAwaitsNoDecisionIsAToast(t *testing.T) {
	s := newSettings()
	var r *domain.Reloader
	f := newFixture(t, withSettings(s, &r))
	f.connect(t, stdio("files"), domain.Capabilities{})

	resp := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIApprove, "files"), url.Values{}, "pt-BR")
	wantToast(t, resp, http.StatusConflict, "nothing_to_approve", "Não foi possível aprovar files.")
	resp = f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIReject, "ghost"), url.Values{}, "en")
	wantToast(t, resp, http.StatusNotFound, "not_found", "ghost")
}

func TestApproveWithoutApprovalsIsAToast(t *testing.T) {
	f := newFixture(t)
	resp := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIReject, "x<y"), url.Values{}, "en")
	wantToast(t, resp, http.StatusConflict, "nothing_to_approve", "Could not reject x<y.")
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// shownFingerprint is the form a dialog's buttons post: the fingerprint of
// the config it shows.
func shownFingerprint(t *testing.T, dialog *goquery.Selection) url.Values {
	t.Helper()
	v, ok := dialog.Find(`form input[type="hidden"][name="fingerprint"]`).Attr("value")
	if !ok || v == "" {
		t.Fatalf("the dialog's form carries no fingerprint")
	}
	return url.Values{"fingerprint": {v}}
}
