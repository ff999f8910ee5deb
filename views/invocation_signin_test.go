package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestCardNeedsMoreAccessOffersSignInThenRetry(t *testing.T) {
	inv := invAt(domain.InvocationError, "")
	inv.Error = "the server needs more access than this sign-in grants (scopes: read write)"
	inv.ErrorCode = domain.ErrorCodeNeedsMoreAccess
	inv.NeededScopes = []string{"read", "write"}
	urls := invURLs
	urls.SignIn = "/ui/servers/demo/auth/start"
	card := renderCard(t, inv, views.CardInput{URLs: urls})

	form := card.Find(`[data-testid="invocation-signin"]`)
	if form.Length() != 1 {
		t.Fatal("no sign-in offer on a card refused for lack of access")
	}
	if got := form.AttrOr("action", ""); got != urls.SignIn {
		t.Errorf("action: got %q, want %q", got, urls.SignIn)
	}
	if got := form.AttrOr("target", ""); got != "_blank" {
		t.Errorf("target: got %q, want _blank", got)
	}
	if got := form.Find(`[data-testid="invocation-signin-more"]`).Text(); !strings.Contains(got, "Sign in with more access") {
		t.Errorf("button: got %q", got)
	}
	if got := form.Find(`[data-testid="invocation-signin-scopes"]`).Text(); got != "read write" {
		t.Errorf("scopes: got %q", got)
	}
	if card.Find(`[data-testid="invocation-retry"]`).Length() != 1 {
		t.Error("no Retry beside the sign-in offer")
	}
	if got := card.Find(`[data-testid="invocation-error"]`).Text(); !strings.Contains(got, "Sign in with more access, then retry") {
		t.Errorf("error words: got %q", got)
	}
}

func TestCardOtherErrorsOfferNoSignIn(t *testing.T) {
	inv := invAt(domain.InvocationError, "")
	inv.Error = "boom"
	urls := invURLs
	urls.SignIn = "/ui/servers/demo/auth/start"
	if card := renderCard(t, inv, views.CardInput{URLs: urls}); card.Find(`[data-testid="invocation-signin"]`).Length() != 0 {
		t.Error("a plain error offers a sign-in")
	}
}
