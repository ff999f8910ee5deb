package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/views"
)

func TestOAuthPageSignedIn(t *testing.T) {
	p := views.NewOAuthSignedInProps("linear")
	p.DashboardURL = "/"
	doc := renderComponent(t, "en", views.OAuthPage(p))
	if got := doc.Find("h1").Text(); got != "Signed in to linear" {
		t.Errorf("title: got %q", got)
	}
	if got := doc.Find(`[data-testid="oauth-message"]`).AttrOr("role", ""); got != "status" {
		t.Errorf("message role: got %q, want status", got)
	}
	if doc.Find(`meta[http-equiv="refresh"]`).Length() != 0 {
		t.Error("the callback page moves on by itself")
	}
	if got := doc.Find(`[data-testid="oauth-dashboard"]`).AttrOr("href", ""); got != "/" {
		t.Errorf("dashboard link: got %q", got)
	}
}

func TestOAuthPageContinueGoesToTheAuthorizationServer(t *testing.T) {
	const authz = "https://auth.example.com/authorize?client_id=abc&state=xyz&code_challenge=q"
	doc := renderComponent(t, "pt-BR", views.OAuthPage(views.NewOAuthContinueProps("linear", authz)))
	if got := doc.Find(`meta[http-equiv="refresh"]`).AttrOr("content", ""); got != "0;url="+authz {
		t.Errorf("refresh: got %q", got)
	}
	link := doc.Find(`[data-testid="oauth-continue"]`)
	if got := link.AttrOr("href", ""); got != authz {
		t.Errorf("continue link: got %q, want %q", got, authz)
	}
	if got := link.Text(); got != "Continuar para auth.example.com" {
		t.Errorf("continue words: got %q", got)
	}
}

func TestOAuthPageRefusesANonWebAuthorizationURL(t *testing.T) {
	for _, u := range []string{"javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "no scheme"} {
		p := views.NewOAuthContinueProps("linear", u)
		if p.Kind != views.OAuthStartFailed || p.ContinueURL != "" {
			t.Errorf("%q: got kind %q url %q, want a refusal", u, p.Kind, p.ContinueURL)
		}
		doc := renderComponent(t, "en", views.OAuthPage(p))
		if doc.Find(`meta[http-equiv="refresh"]`).Length() != 0 || doc.Find(`[data-testid="oauth-continue"]`).Length() != 0 {
			t.Errorf("%q: the page still moves on", u)
		}
	}
}

func TestOAuthPageFailedEscapesTheServersWords(t *testing.T) {
	p := views.NewOAuthFailedProps("linear", `access_denied: <script>alert(1)</script>`)
	doc := renderComponent(t, "zh-Hans", views.OAuthPage(p))
	if doc.Find("script").Length() != 0 {
		t.Fatal("the authorization server's words ran as HTML")
	}
	if got := doc.Find(`[data-testid="oauth-detail"]`).Text(); !strings.Contains(got, "<script>") {
		t.Errorf("detail: got %q", got)
	}
	if got := doc.Find(`[data-testid="oauth-message"]`).AttrOr("role", ""); got != "alert" {
		t.Errorf("failure role: got %q, want alert", got)
	}
	if got := doc.Find("html").AttrOr("lang", ""); got != "zh-Hans" {
		t.Errorf("lang: got %q", got)
	}
}

func TestOAuthPageUnknownShowsNothingOfTheQuery(t *testing.T) {
	doc := renderComponent(t, "en", views.OAuthPage(views.NewOAuthUnknownProps()))
	if doc.Find(`[data-testid="oauth-detail"]`).Length() != 0 {
		t.Error("an unknown state's page shows a detail")
	}
	if got := doc.Find(`[data-testid="oauth-message"]`).Text(); !strings.Contains(got, "not started by Switchboard") {
		t.Errorf("message: got %q", got)
	}
}
