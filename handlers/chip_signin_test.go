package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/views"
)

// newChipSignInFixture is a fixture whose fleet reads sign-ins from a
// fake sign-in runner, so a server's snapshots carry its sign-in state,
// with one server "linear" whose state is auth.
func newChipSignInFixture(t *testing.T, auth *domain.AuthStatus) (*fixture, *fakeSignIns) {
	t.Helper()
	s := newFakeSignIns()
	s.status["linear"] = auth
	conn := domaintest.NewConnector()
	clock := domaintest.NewClock(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	fleet := domain.NewFleet(domain.FleetOptions{
		SupervisorOptions: domain.SupervisorOptions{
			Connector: conn, Store: domaintest.NewStore(), Clock: clock, Auth: s,
			Scope: domain.Scope{User: domain.LocalUser, Workspace: "test"},
			Rand:  func() float64 { return 0 },
		},
		Editor: &editor{},
	})
	f := newFixture(t, func(o *handlers.Options) { o.SignIns = s; o.Fleet = fleet })
	unused := f.fleet
	f.fleet, f.conn, f.clock = fleet, conn, clock // the cleanup closes this one
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	if err := unused.Close(ctx); err != nil {
		t.Fatal(err)
	}
	f.attach(t, stdio("linear"))
	waitFor(t, fleet.Hub(), "linear", "with its sign-in", func(st domain.Status) bool { return st.Auth != nil })
	return f, s
}

// dashboardDoc fetches the dashboard in lang.
func dashboardDoc(t *testing.T, f *fixture, lang string) *goquery.Document {
	t.Helper()
	code, body := f.do(t, http.MethodGet, handlers.PathDashboard, http.Header{"Accept-Language": {lang}})
	if code != http.StatusOK {
		t.Fatalf("dashboard: %d", code)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// A server that waits for a sign-in has Sign in beside its row's chip (the
// header holds no chips): the drawer's plain form, posting to the same URL in a
// new tab, inside the chip (so the stream's swaps of the chip carry it),
// named for the server in every language; the tooltip points to it.
func TestChipOffersSignInBesideIt(t *testing.T) {
	f, _ := newChipSignInFixture(t, &domain.AuthStatus{State: domain.AuthSignInNeeded})
	tests := []struct{ lang, word, name, hint string }{
		{"en", "Sign in", "Sign in to linear (opens in a new tab)", "Use Sign in beside the chip, or open the server for details."},
		{"pt-BR", "Fazer login", "Fazer login em linear (abre em uma nova aba)", "Use Fazer login ao lado do chip ou abra o servidor para ver os detalhes."},
		{"zh-Hans", "登录", "登录 linear（在新标签页中打开）", "请使用标签旁的“登录”，或打开该服务器查看详情。"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			doc := dashboardDoc(t, f, tt.lang)
			buttons := doc.Find(`[data-testid="status-chip"] > [data-testid="chip-signin"]`)
			if buttons.Length() != 1 {
				t.Fatalf("got %d Sign in actions in chips, want one, in the list", buttons.Length())
			}
			ids := map[string]bool{}
			buttons.Each(func(_ int, b *goquery.Selection) {
				form := doc.Find("form#" + b.AttrOr("form", "-"))
				if form.Length() != 1 || form.AttrOr("method", "") != "post" || b.AttrOr("formmethod", "") != "post" ||
					b.AttrOr("formtarget", "") != "_blank" ||
					b.AttrOr("formaction", "") != handlers.ServerPath(handlers.PathUIAuthStart, "linear") {
					t.Errorf("button %v; want the drawer's plain POST to the sign-in start in a new tab, through the page's form", b.Nodes[0].Attr)
				}
				if b.AttrOr("type", "") != "submit" || strings.TrimSpace(b.Text()) != tt.word {
					t.Errorf("button %q (type %q), want a submit saying %q", b.Text(), b.AttrOr("type", ""), tt.word)
				}
				if got := b.AttrOr("aria-label", ""); got != tt.name {
					t.Errorf("accessible name %q, want %q", got, tt.name)
				}
				ids[b.AttrOr("id", "")] = true
			})
			if len(ids) != 1 || ids[""] {
				t.Errorf("ids %v; want an id, so focus survives swaps", ids)
			}
			hint := doc.Find(`#server-list [data-testid="tooltip-auth"] [data-testid="tooltip-auth-hint"]`)
			if got := hint.Text(); got != tt.hint {
				t.Errorf("tooltip hint %q, want %q", got, tt.hint)
			}
		})
	}
}

// The page stream's swap of a chip carries Sign in while it is needed and
// drops it once the server no longer waits for a person; a server that
// must be given a client ID first offers none beside the chip.
func TestChipSignInFollowsTheSignInOnPageEvents(t *testing.T) {
	f, s := newChipSignInFixture(t, &domain.AuthStatus{State: domain.AuthSignInNeeded, MoreAccess: true})
	stream := f.openPageEvents(t, http.Header{"Accept-Language": {"en"}})
	fr, _ := stream.until(t, "the full state", func(fr sseFrame) bool { return isFullState(fragment(t, fr)) })
	chip := fragment(t, fr).Find(`#server-list [data-testid="status-chip"][data-server="linear"]`)
	if got := chip.Find(`[data-testid="chip-signin"]`).AttrOr("data-kind", ""); got != views.ChipSignInMore {
		t.Fatalf("kind %q, want %q; chip %q", got, views.ChipSignInMore, fr.Data)
	}
	if got := chip.Find(`[data-testid="chip-signin"]`).AttrOr("aria-label", ""); got != "Sign in to linear with more access (opens in a new tab)" {
		t.Errorf("accessible name %q", got)
	}

	s.set(func(s *fakeSignIns) { s.status["linear"] = &domain.AuthStatus{State: domain.AuthNeedsClientID} })
	f.fleet.AuthChanged("linear")
	fr, _ = stream.until(t, "the chip without Sign in", func(fr sseFrame) bool {
		return fr.Event == "status" && strings.Contains(fr.Data, "Needs a client ID")
	})
	doc := fragment(t, fr)
	if n := doc.Find(`[data-testid="chip-signin"]`).Length(); n != 0 {
		t.Errorf("a server that needs a client ID first offers Sign in beside its chip: %q", fr.Data)
	}
	if got := doc.Find(`[data-testid="status-chip"] [data-testid="tooltip-retry"]`).Text(); !strings.Contains(got, "Open the server to sign in.") {
		t.Errorf("tooltip %q; want the hint to open the server", got)
	}
}
