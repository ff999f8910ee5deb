package views_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

var authURLs = views.DrawerURLs{
	AuthStart: "/ui/servers/linear/auth/start", AuthSignOut: "/ui/servers/linear/auth/signout",
	AuthComplete: "/ui/servers/linear/auth/complete", AuthClient: "/ui/servers/linear/auth/client",
}

// signInStatus is a remote server the supervisor gave up on until a
// person signs in.
func signInStatus(a *domain.AuthStatus) domain.Status {
	return domain.Status{ServerName: "linear", State: domain.StateError, ErrorCategory: domain.CategorySignIn,
		Error: "401 Unauthorized", Transport: domain.TransportHTTP, Target: "https://mcp.linear.app/mcp", Auth: a}
}

func TestDrawerAuthPerState(t *testing.T) {
	expires := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		auth      domain.AuthStatus
		state     string
		signIn    string // the Sign in button's kind; empty: no button
		signOut   bool
		paste     bool
		client    bool
		scopesKey string
	}{
		{"needed-offers-sign-in-and-paste", domain.AuthStatus{State: domain.AuthSignInNeeded, Scopes: []string{"read"}},
			"Sign-in needed", "AuthSignIn", false, true, false, "Access asked for"},
		{"signing-in-offers-paste", domain.AuthStatus{State: domain.AuthSigningIn},
			"Signing in…", "AuthSignIn", false, true, false, ""},
		{"signed-in-offers-sign-out", domain.AuthStatus{State: domain.AuthSignedIn, Scopes: []string{"read", "write"}, ExpiresAt: expires, Issuer: "https://auth.linear.app", KeySource: domain.KeySourceDataDir},
			"Signed in", "AuthSignInAgain", true, false, false, "Access granted"},
		{"more-access-offers-step-up", domain.AuthStatus{State: domain.AuthSignedIn, MoreAccess: true, Scopes: []string{"read", "write"}},
			"Needs more access", "AuthSignInMore", true, true, false, "Access granted"},
		{"needs-client-id-asks-for-one", domain.AuthStatus{State: domain.AuthNeedsClientID, RedirectURI: "http://127.0.0.1:8080/oauth/callback"},
			"Needs a client ID", "", false, false, true, ""},
		{"refresh-failing-keeps-sign-out", domain.AuthStatus{State: domain.AuthRefreshFailing, Detail: "connection refused"},
			"Refresh failing", "AuthSignInAgain", true, false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.auth
			p := views.NewDrawerAuthProps(signInStatus(&a), authURLs)
			doc := renderComponent(t, "en", views.DrawerAuth(p, false))
			sec := doc.Find(`[data-testid="drawer-auth"]`)
			if _, hidden := sec.Attr("hidden"); hidden {
				t.Fatal("section hidden for a server that uses sign-in")
			}
			if got := strings.TrimSpace(sec.Find(`[data-testid="auth-state"]`).Text()); got != tt.state {
				t.Errorf("state: got %q, want %q", got, tt.state)
			}
			btn := sec.Find(`[data-testid="auth-signin"]`)
			if kind, _ := btn.Attr("data-kind"); kind != tt.signIn {
				t.Errorf("sign-in button: got %q, want %q", kind, tt.signIn)
			}
			if tt.signIn != "" {
				form := btn.Closest("form")
				if m, _ := form.Attr("method"); m != "post" {
					t.Errorf("sign-in form method: got %q, want post", m)
				}
				if tg, _ := form.Attr("target"); tg != "_blank" {
					t.Errorf("sign-in form target: got %q, want _blank", tg)
				}
				if a, _ := form.Attr("action"); a != authURLs.AuthStart {
					t.Errorf("sign-in form action: got %q, want %q", a, authURLs.AuthStart)
				}
			}
			if got := sec.Find(`[data-testid="auth-signout"]`).Length() == 1; got != tt.signOut {
				t.Errorf("sign out offered: got %v, want %v", got, tt.signOut)
			}
			if got := sec.Find(`[data-testid="auth-paste"]`).Length() == 1; got != tt.paste {
				t.Errorf("paste form offered: got %v, want %v", got, tt.paste)
			}
			if got := sec.Find(`[data-testid="auth-client"]`).Length() == 1; got != tt.client {
				t.Errorf("client form offered: got %v, want %v", got, tt.client)
			}
			if tt.client {
				if got := sec.Find(`[data-testid="auth-redirect-uri"]`).Text(); got != a.RedirectURI {
					t.Errorf("redirect URI: got %q, want %q", got, a.RedirectURI)
				}
			}
			if tt.scopesKey != "" {
				if got := sec.Find(`dt:contains("` + tt.scopesKey + `")`).Length(); got != 1 {
					t.Errorf("scopes labelled %q: got %d, want 1", tt.scopesKey, got)
				}
			}
		})
	}
}

func TestDrawerAuthShowsFacts(t *testing.T) {
	expires := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	a := &domain.AuthStatus{State: domain.AuthSignedIn, Scopes: []string{"read", "write"}, ExpiresAt: expires,
		Issuer: "https://auth.linear.app", KeySource: domain.KeySourceKeychain}
	doc := renderComponent(t, "pt-BR", views.DrawerAuth(views.NewDrawerAuthProps(signInStatus(a), authURLs), false))
	if got := doc.Find(`[data-testid="auth-scopes"]`).Text(); got != "read write" {
		t.Errorf("scopes: got %q, want %q", got, "read write")
	}
	if got, want := doc.Find(`[data-testid="auth-expires"]`).AttrOr("data-time", ""), strconv.FormatInt(expires.UnixMilli(), 10); got != want {
		t.Errorf("expiry: got %q, want %q", got, want)
	}
	if got := doc.Find(`[data-testid="auth-issuer"]`).Text(); got != "https://auth.linear.app" {
		t.Errorf("issuer: got %q", got)
	}
	if got := doc.Find(`[data-testid="auth-key-source"]`).Text(); got != "uma chave no chaveiro do sistema" {
		t.Errorf("key source in Portuguese: got %q", got)
	}
}

func TestDrawerAuthEscapesDetail(t *testing.T) {
	a := &domain.AuthStatus{State: domain.AuthFailed, Detail: `<img src=x onerror=alert(1)> invalid_client`}
	doc := renderComponent(t, "en", views.DrawerAuth(views.NewDrawerAuthProps(signInStatus(a), authURLs), false))
	if doc.Find("img").Length() != 0 {
		t.Fatal("the authorization server's words were rendered as HTML")
	}
	if got := doc.Find(`[data-testid="auth-detail"]`).Text(); got != a.Detail {
		t.Errorf("detail: got %q, want %q", got, a.Detail)
	}
}

func TestDrawerAuthHiddenWithoutSignIn(t *testing.T) {
	st := domain.Status{ServerName: "files", State: domain.StateConnected}
	doc := renderComponent(t, "en", views.DrawerAuth(views.NewDrawerAuthProps(st, authURLs), true))
	sec := doc.Find(`[data-testid="drawer-auth"]`)
	if _, hidden := sec.Attr("hidden"); !hidden || sec.Children().Length() != 0 {
		t.Errorf("a server without sign-in: got a visible or filled section")
	}
	if id, _ := sec.Attr("id"); id != views.DrawerAuthID("files") {
		t.Errorf("placeholder id: got %q, want %q (a later swap fills it)", id, views.DrawerAuthID("files"))
	}
}

func TestChipSaysSignInInWordsNotError(t *testing.T) {
	for _, tt := range []struct {
		name  string
		st    domain.Status
		badge string
	}{
		{"category-only", signInStatus(nil), "Sign-in needed"},
		{"signing-in", signInStatus(&domain.AuthStatus{State: domain.AuthSigningIn}), "Signing in…"},
		{"needs-client-id", signInStatus(&domain.AuthStatus{State: domain.AuthNeedsClientID}), "Needs a client ID"},
		{"more-access-while-connecting", signInStatus(&domain.AuthStatus{State: domain.AuthSignedIn, MoreAccess: true}), "Needs more access"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			chip := chipDoc(t, "en", tt.st)
			if got, _ := chip.Attr("data-state"); got != views.ChipSignIn {
				t.Errorf("chip state: got %q, want %q", got, views.ChipSignIn)
			}
			if got := chip.Find(`[data-testid="chip-badge"]`).Text(); got != tt.badge {
				t.Errorf("badge: got %q, want %q", got, tt.badge)
			}
			if chip.Find(".dot-error").Length() != 0 || chip.Find(`[data-testid="tooltip-error"]`).Length() != 0 {
				t.Error("a server waiting for a sign-in is drawn as an error")
			}
			// Where Sign in sits beside the chip, the auth row says so instead.
			got := chip.Find(`[data-testid="tooltip-retry"]`).Text() + chip.Find(`[data-testid="tooltip-auth-hint"]`).Text()
			if !strings.Contains(strings.ToLower(got), "open the server") {
				t.Errorf("tooltip hint: got %q", got)
			}
		})
	}
}

func TestChipConnectedKeepsItsStateAndTooltipSaysSignedIn(t *testing.T) {
	st := domain.Status{ServerName: "linear", State: domain.StateConnected, ToolCount: 3,
		Auth: &domain.AuthStatus{State: domain.AuthSignedIn}}
	chip := chipDoc(t, "zh-Hans", st)
	if got, _ := chip.Attr("data-state"); got != "connected" {
		t.Errorf("chip state: got %q, want connected", got)
	}
	if got := chip.Find(`[data-testid="tooltip-auth"] .tip-value`).Text(); got != "已登录" {
		t.Errorf("tooltip sign-in row: got %q, want 已登录", got)
	}
}

func TestDrawerHeaderHidesSignInError(t *testing.T) {
	p := views.NewDrawerHeaderProps(signInStatus(&domain.AuthStatus{State: domain.AuthSignInNeeded}))
	if p.Error != "" {
		t.Errorf("header error: got %q, want none (the sign-in section speaks)", p.Error)
	}
	p = views.NewDrawerHeaderProps(domain.Status{ServerName: "x", State: domain.StateError, ErrorCategory: domain.CategoryAuth, Error: "403"})
	if p.Error == "" {
		t.Error("a plain auth error lost its header error")
	}
}

// The drawer reloads its live parts, the sign-in section among them, when
// the header's stamp differs from theirs: a sign-in change must change it.
func TestDrawerStampFollowsTheSignIn(t *testing.T) {
	needed := views.NewDrawerHeaderProps(signInStatus(&domain.AuthStatus{State: domain.AuthSignInNeeded})).Stamp
	signing := views.NewDrawerHeaderProps(signInStatus(&domain.AuthStatus{State: domain.AuthSigningIn})).Stamp
	more := views.NewDrawerHeaderProps(signInStatus(&domain.AuthStatus{State: domain.AuthSigningIn, MoreAccess: true})).Stamp
	if needed == signing || signing == more {
		t.Errorf("stamps %q, %q, %q: want each sign-in change to differ", needed, signing, more)
	}
}
