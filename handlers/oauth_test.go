package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

func TestSignInAPIStartAnswersTheAuthorizationURL(t *testing.T) {
	f, s := newSignInFixture(t)
	code, body := f.postJSON(t, handlers.ServerPath(handlers.PathServerAuthStart, "linear"), "")
	if code != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body %s", code, body)
	}
	if got := decode[handlers.AuthorizationDTO](t, body).AuthorizationURL; got != s.startURL {
		t.Errorf("authorizationUrl: got %q, want %q", got, s.startURL)
	}
}

func TestSignInAPIErrors(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		status int
		code   string
	}{
		{"unknown-server", fmt.Errorf("sign in to nope: %w", domain.ErrNotFound), http.StatusNotFound, "not_found"},
		{"no-oauth", fmt.Errorf("sign in to files: %w", domain.ErrNoSignIn), http.StatusConflict, "no_sign_in"},
		{"needs-client-id", fmt.Errorf("register: %w", domain.ErrNeedsClientID), http.StatusConflict, "needs_client_id"},
		{"discovery-failed", fmt.Errorf("discover https://mcp.example: no authorization server metadata"), http.StatusBadGateway, "sign_in_failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, s := newSignInFixture(t)
			s.set(func(s *fakeSignIns) { s.startErr = tt.err })
			code, body := f.postJSON(t, handlers.ServerPath(handlers.PathServerAuthStart, "linear"), "")
			e := wantError(t, code, body, tt.status, tt.code)
			if tt.code == "sign_in_failed" && !strings.Contains(e.Error.Message, "no authorization server metadata") {
				t.Errorf("message lost the sign-in's words: %q", e.Error.Message)
			}
		})
	}
}

func TestSignInAPISignOutAndClient(t *testing.T) {
	f, s := newSignInFixture(t)
	if code, body := f.postJSON(t, handlers.ServerPath(handlers.PathServerAuthSignOut, "linear"), ""); code != http.StatusNoContent {
		t.Fatalf("sign out: got %d, want 204; body %s", code, body)
	}
	code, body := f.postJSON(t, handlers.ServerPath(handlers.PathServerAuthClient, "linear"), `{"clientId": " abc ", "clientSecret": "shh"}`)
	if code != http.StatusNoContent {
		t.Fatalf("client: got %d, want 204; body %s", code, body)
	}
	code, body = f.postJSON(t, handlers.ServerPath(handlers.PathServerAuthClient, "linear"), `{"clientId": ""}`)
	wantError(t, code, body, http.StatusBadRequest, "client_id_required")
	code, body = f.postJSON(t, handlers.ServerPath(handlers.PathServerAuthClient, "linear"), `{"client_id": "abc"}`)
	wantError(t, code, body, http.StatusBadRequest, "bad_request")
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.signedOut) != 1 || s.signedOut[0] != "linear" {
		t.Errorf("signed out: got %v", s.signedOut)
	}
	if len(s.clients) != 1 || s.clients[0] != "linear#abc#shh" {
		t.Errorf("clients: got %v", s.clients)
	}
}

func TestSignInAPICompleteTakesAPastedAddress(t *testing.T) {
	for _, pasted := range []string{
		"http://127.0.0.1:8080/oauth/callback?code=c1&state=s1&iss=https%3A%2F%2Fauth.example.com",
		"?code=c1&state=s1&iss=https%3A%2F%2Fauth.example.com",
		"code=c1&state=s1&iss=https%3A%2F%2Fauth.example.com",
	} {
		t.Run(pasted, func(t *testing.T) {
			f, s := newSignInFixture(t)
			s.set(func(s *fakeSignIns) { s.completeTo = "linear" })
			code, body := f.postJSON(t, handlers.ServerPath(handlers.PathServerAuthComplete, "linear"), `{"callbackUrl": "`+pasted+`"}`)
			if code != http.StatusOK {
				t.Fatalf("status: got %d, want 200; body %s", code, body)
			}
			if got := decode[handlers.CompletedDTO](t, body).ServerName; got != "linear" {
				t.Errorf("serverName: got %q", got)
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			q := s.callbacks[0]
			if q.Get("code") != "c1" || q.Get("state") != "s1" || q.Get("iss") != "https://auth.example.com" {
				t.Errorf("callback passed on: got %v", q)
			}
		})
	}
}

func TestSignInAPICompleteRefusals(t *testing.T) {
	f, s := newSignInFixture(t)
	path := handlers.ServerPath(handlers.PathServerAuthComplete, "linear")
	for _, bad := range []string{`{"callbackUrl": ""}`, `{"callbackUrl": "https://example.com/"}`, `{"callbackUrl": "http://127.0.0.1/oauth/callback?code=x"}`} {
		code, body := f.postJSON(t, path, bad)
		wantError(t, code, body, http.StatusBadRequest, "not_a_callback")
	}
	s.set(func(s *fakeSignIns) { s.completeEr = fmt.Errorf("state: %w", domain.ErrSignInUnknown) })
	code, body := f.postJSON(t, path, `{"callbackUrl": "?error=access_denied&error_description=EVIL-WORDS&state=forged"}`)
	e := wantError(t, code, body, http.StatusBadRequest, "sign_in_unknown")
	if strings.Contains(e.Error.Message, "EVIL") {
		t.Errorf("an unknown state's description was echoed: %q", e.Error.Message)
	}
}

func TestOAuthCallbackIsPublicAndSaysSignedIn(t *testing.T) {
	f, s := newSignInFixture(t)
	s.set(func(s *fakeSignIns) { s.completeTo = "linear" })
	code, hdr, doc, raw := f.page(t, http.MethodGet, handlers.PathOAuthCallback+"?code=c1&state=s1", http.Header{"Accept-Language": {"pt-BR"}}, nil)
	if code != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body %s", code, raw)
	}
	if got := doc.Find("h1").Text(); got != "Login feito em linear" {
		t.Errorf("title: got %q", got)
	}
	if got := hdr.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control: got %q", got)
	}
	if got := hdr.Get("Referrer-Policy"); got != "no-referrer" {
		t.Errorf("Referrer-Policy: got %q (the code must not leak)", got)
	}
}

func TestOAuthCallbackUnknownStateEchoesNothing(t *testing.T) {
	f, s := newSignInFixture(t)
	s.set(func(s *fakeSignIns) { s.completeEr = domain.ErrSignInUnknown })
	code, _, doc, raw := f.page(t, http.MethodGet, handlers.PathOAuthCallback+"?error=access_denied&error_description=%3Cb%3EEVIL-WORDS%3C%2Fb%3E&state=forged", nil, nil)
	if code != http.StatusBadRequest {
		t.Fatalf("status: got %d, want 400", code)
	}
	if strings.Contains(raw, "EVIL") || strings.Contains(raw, "forged") {
		t.Errorf("the page echoes the query: %s", raw)
	}
	if got := doc.Find(`[data-testid="oauth-page"]`).AttrOr("data-kind", ""); got != "unknown" {
		t.Errorf("kind: got %q, want unknown", got)
	}
}

func TestOAuthCallbackFailureOfAKnownSignInSaysWhy(t *testing.T) {
	f, s := newSignInFixture(t)
	s.set(func(s *fakeSignIns) {
		s.completeTo = "linear"
		s.completeEr = fmt.Errorf("the authorization server refused: access_denied (<b>the user said no</b>)")
	})
	code, _, doc, _ := f.page(t, http.MethodGet, handlers.PathOAuthCallback+"?error=access_denied&state=s1", nil, nil)
	if code != http.StatusBadRequest {
		t.Fatalf("status: got %d, want 400", code)
	}
	if doc.Find("b").Length() != 0 {
		t.Error("the server's words were rendered as HTML")
	}
	if got := doc.Find(`[data-testid="oauth-detail"]`).Text(); !strings.Contains(got, "the user said no") {
		t.Errorf("detail: got %q", got)
	}
	if got := doc.Find("h1").Text(); got != "Signing in to linear failed" {
		t.Errorf("title: got %q", got)
	}
}

func TestUIStartContinuesInTheNewTab(t *testing.T) {
	f, s := newSignInFixture(t)
	hdr := http.Header{"Authorization": {"Bearer " + fixtureToken}, "Origin": {f.srv.URL}}
	code, _, doc, raw := f.page(t, http.MethodPost, handlers.ServerPath(handlers.PathUIAuthStart, "linear"), hdr, url.Values{})
	if code != http.StatusOK {
		t.Fatalf("status: got %d, want 200; body %s", code, raw)
	}
	if got := doc.Find(`meta[http-equiv="refresh"]`).AttrOr("content", ""); got != "0;url="+s.startURL {
		t.Errorf("refresh: got %q", got)
	}
	if got := doc.Find(`[data-testid="oauth-continue"]`).AttrOr("href", ""); got != s.startURL {
		t.Errorf("continue link: got %q", got)
	}
}

func TestUIStartRefusesAnotherSite(t *testing.T) {
	f, s := newSignInFixture(t)
	hdr := http.Header{"Authorization": {"Bearer " + fixtureToken}, "Origin": {"https://evil.example"}}
	code, _, _, _ := f.page(t, http.MethodPost, handlers.ServerPath(handlers.PathUIAuthStart, "linear"), hdr, url.Values{})
	if code != http.StatusForbidden {
		t.Fatalf("status: got %d, want 403", code)
	}
	if s.AuthStatus("linear") != nil {
		t.Error("a cross-site form started a sign-in")
	}
}

func TestUIStartNeedsClientIDSaysWhereToGiveOne(t *testing.T) {
	f, s := newSignInFixture(t)
	s.set(func(s *fakeSignIns) { s.startErr = fmt.Errorf("register: %w", domain.ErrNeedsClientID) })
	hdr := http.Header{"Authorization": {"Bearer " + fixtureToken}}
	code, _, doc, _ := f.page(t, http.MethodPost, handlers.ServerPath(handlers.PathUIAuthStart, "linear"), hdr, url.Values{})
	if code != http.StatusConflict {
		t.Fatalf("status: got %d, want 409", code)
	}
	if doc.Find(`meta[http-equiv="refresh"]`).Length() != 0 {
		t.Error("a failed start still moves on")
	}
	if got := doc.Find(`[data-testid="oauth-message"]`).Text(); !strings.Contains(got, "client ID") {
		t.Errorf("message: got %q", got)
	}
}

func TestUISignOutAnswersTheSection(t *testing.T) {
	f, s := newSignInFixture(t)
	s.set(func(s *fakeSignIns) { s.status["linear"] = &domain.AuthStatus{State: domain.AuthSignedIn} })
	r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIAuthSignOut, "linear"), url.Values{}, "en")
	if r.status != http.StatusOK {
		t.Fatalf("status: got %d; body %s", r.status, r.body)
	}
	sec := r.doc.Find(`[data-testid="drawer-auth"]`)
	if got := sec.AttrOr("data-auth-state", ""); got != "sign_in_needed" {
		t.Errorf("section state: got %q, want sign_in_needed", got)
	}
	if got := sec.Find(`[data-testid="auth-notice"]`).Text(); !strings.Contains(got, "Signed out") {
		t.Errorf("notice: got %q", got)
	}
}

func TestUICompleteAndClientForms(t *testing.T) {
	f, s := newSignInFixture(t)
	s.set(func(s *fakeSignIns) { s.completeTo = "linear" })
	r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIAuthComplete, "linear"),
		url.Values{"callbackUrl": {"http://127.0.0.1:9/oauth/callback?code=c&state=s"}}, "en")
	if got := r.doc.Find(`[data-testid="drawer-auth"]`).AttrOr("data-auth-state", ""); got != "signed_in" {
		t.Errorf("after paste: got %q, want signed_in; body %s", got, r.body)
	}
	r = f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIAuthComplete, "linear"),
		url.Values{"callbackUrl": {"https://example.com/"}}, "en")
	wantToast(t, r, http.StatusBadRequest, "not_a_callback", "not the address")

	s.set(func(s *fakeSignIns) { s.status["linear"] = &domain.AuthStatus{State: domain.AuthNeedsClientID} })
	r = f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIAuthClient, "linear"), url.Values{"clientId": {""}}, "en")
	wantToast(t, r, http.StatusBadRequest, "client_id_required", "client ID")
	r = f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIAuthClient, "linear"), url.Values{"clientId": {"abc"}}, "en")
	if got := r.doc.Find(`[data-testid="auth-notice"]`).Text(); !strings.Contains(got, "Client ID saved") {
		t.Errorf("notice: got %q; body %s", got, r.body)
	}
}

func TestSignInRoutesAbsentWithoutSignIns(t *testing.T) {
	f := newFixture(t)
	code, _ := f.do(t, http.MethodGet, handlers.PathOAuthCallback+"?code=c&state=s", nil)
	if code != http.StatusNotFound {
		t.Errorf("callback without sign-ins: got %d, want 404", code)
	}
}

func TestPastedAddressOfAnotherServerIsRefused(t *testing.T) {
	f, s := newSignInFixture(t)
	s.set(func(s *fakeSignIns) { s.completeTo = "linear" })
	pasted := "http://127.0.0.1:9/oauth/callback?code=c&state=s"
	code, body := f.postJSON(t, handlers.ServerPath(handlers.PathServerAuthComplete, "github"), `{"callbackUrl": "`+pasted+`"}`)
	wantError(t, code, body, http.StatusConflict, "sign_in_other_server")

	r := f.ui(t, http.MethodPost, handlers.ServerPath(handlers.PathUIAuthComplete, "github"), url.Values{"callbackUrl": {pasted}}, "pt-BR")
	wantToast(t, r, http.StatusConflict, "sign_in_other_server", "outro servidor")
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.callbacks) != 0 || s.status["linear"] != nil {
		t.Errorf("the other server's sign-in was used: callbacks %v, status %+v", s.callbacks, s.status["linear"])
	}
}
