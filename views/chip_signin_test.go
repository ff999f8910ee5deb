package views_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// renderWithSignIn renders c in English with a sign-in link, as the
// handlers do.
func renderWithSignIn(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	cat, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx := locales.WithLocalizer(context.Background(), cat.Localizer("en"))
	ctx = views.WithLinks(ctx, views.Links{SignIn: func(s string) string { return "/ui/servers/" + s + "/auth/start" }})
	var buf bytes.Buffer
	if err := c.Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// Sign in sits beside the chip exactly when a person can sign in from
// there: waiting for a first sign-in (or one left unfinished or failed),
// or needing more access; never while signed in, before a client ID is
// given, or for a disabled or blocked server.
func TestChipSignInOnlyWhenAPersonCanSignIn(t *testing.T) {
	auth := func(st domain.AuthState, more bool) *domain.AuthStatus {
		return &domain.AuthStatus{State: st, MoreAccess: more}
	}
	tests := []struct {
		name string
		in   domain.Status
		kind string // empty: no action
	}{
		{"needed", domain.Status{State: domain.StateError, ErrorCategory: domain.CategorySignIn, Auth: auth(domain.AuthSignInNeeded, false)}, views.ChipSignInFirst},
		{"signing in", domain.Status{State: domain.StateConnecting, Auth: auth(domain.AuthSigningIn, false)}, views.ChipSignInFirst},
		{"failed", domain.Status{State: domain.StateError, Auth: auth(domain.AuthFailed, false)}, views.ChipSignInFirst},
		{"more access", domain.Status{State: domain.StateConnected, Auth: auth(domain.AuthSignedIn, true)}, views.ChipSignInMore},
		{"signed in", domain.Status{State: domain.StateConnected, Auth: auth(domain.AuthSignedIn, false)}, ""},
		{"refresh failing", domain.Status{State: domain.StateConnected, Auth: auth(domain.AuthRefreshFailing, false)}, ""},
		{"needs client id", domain.Status{State: domain.StateConnecting, Auth: auth(domain.AuthNeedsClientID, false)}, ""},
		{"disabled", domain.Status{State: domain.StateDisabled, Auth: auth(domain.AuthSignInNeeded, false)}, ""},
		{"blocked", domain.Status{State: domain.StateConnecting, BlockedReason: domain.BlockedPending, Auth: auth(domain.AuthSignInNeeded, false)}, ""},
		{"no sign-in", domain.Status{State: domain.StateError, ErrorCategory: domain.CategorySignIn}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.ServerName = "linear"
			p := views.NewChipPropsAt(tt.in, testNow).At(views.PlaceHeader, "/ui/servers/linear/drawer")
			doc := renderWithSignIn(t, views.StatusChip(p))
			b := doc.Find(`[data-testid="status-chip"] > button[data-testid="chip-signin"]`)
			hint := doc.Find(`[data-testid="tooltip-auth-hint"]`)
			if tt.kind == "" {
				if b.Length() != 0 || hint.Length() != 0 {
					t.Errorf("got %d actions and %d hints, want none", b.Length(), hint.Length())
				}
				return
			}
			if b.Length() != 1 || b.AttrOr("data-kind", "") != tt.kind {
				t.Fatalf("got %d actions (kind %q), want one of kind %q", b.Length(), b.AttrOr("data-kind", ""), tt.kind)
			}
			if got := b.AttrOr("formaction", ""); got != "/ui/servers/linear/auth/start" {
				t.Errorf("formaction %q", got)
			}
			if b.AttrOr("form", "") != views.ChipSignInFormID || b.AttrOr("formmethod", "") != "post" || b.AttrOr("formtarget", "") != "_blank" {
				t.Errorf("button %v; want a POST through the page's form in a new tab", b.Nodes[0].Attr)
			}
			if b.AttrOr("id", "") != "chipsignin-h-"+p.Key {
				t.Errorf("id %q", b.AttrOr("id", ""))
			}
			if hint.Length() != 1 {
				t.Errorf("the tooltip does not say Sign in is beside the chip")
			}
			if doc.Find(`[data-testid="tooltip-retry"]`).Text() == "Open the server to sign in." {
				t.Errorf("the tooltip still sends the person to the server only")
			}
		})
	}
}

// A chip without a button (the drawer's, a card's) carries no Sign in and
// no hint about one: the drawer has its own section. Without a sign-in
// link (no sign-in runner), nothing is drawn either.
func TestChipSignInOnlyBesideAChipButton(t *testing.T) {
	s := domain.Status{ServerName: "linear", State: domain.StateError, ErrorCategory: domain.CategorySignIn,
		Auth: &domain.AuthStatus{State: domain.AuthSignInNeeded}}
	drawer := views.NewChipPropsAt(s, testNow)
	doc := renderWithSignIn(t, views.StatusChip(drawer))
	if n := doc.Find(`[data-testid="chip-signin"], [data-testid="tooltip-auth-hint"]`).Length(); n != 0 {
		t.Errorf("the drawer's chip has %d sign-in parts, want none", n)
	}
	header := views.NewChipPropsAt(s, testNow).At(views.PlaceRow, "/ui/servers/linear/drawer")
	doc = renderDrawerPart(t, "en", views.StatusChip(header))
	if n := doc.Find(`[data-testid="chip-signin"]`).Length(); n != 0 {
		t.Errorf("a chip rendered without a sign-in link has %d actions", n)
	}
}

// The stream's list of a drawer's questions replaces the list's content
// only, keeping each waiting form by its question.
func TestDrawerElicitationsLiveSwapsTheContent(t *testing.T) {
	p := views.NewDrawerElicitationsProps([]domain.Elicitation{question("q1")}, func(id string) string { return "/ui/elicitations/" + id }).For("my srv")
	doc := renderDrawerPart(t, "en", views.DrawerElicitationsLive(p))
	oob := doc.Find(`[hx-swap-oob]`)
	if oob.Length() != 1 || oob.AttrOr("hx-swap-oob", "") != "innerHTML" || oob.AttrOr("id", "") != views.DrawerElicitationsID("my srv") {
		t.Fatalf("out-of-band parts %d (%q, id %q), want the list's content", oob.Length(), oob.AttrOr("hx-swap-oob", ""), oob.AttrOr("id", ""))
	}
	if _, ok := oob.Find(`[data-testid="elicitation-form"]`).Attr("hx-preserve"); !ok {
		t.Errorf("the form is not preserved")
	}
	if oob.Find(`[hx-trigger], [hx-get]`).Length() != 0 || oob.Is(`[hx-trigger]`) {
		t.Errorf("the live list asks for itself again")
	}
}
