package oauth_test

import (
	"context"
	"errors"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// An address pasted in another server's drawer is refused, and the state
// it carries still finishes the sign-in it belongs to.
func TestManagerCompleteForRefusesAnotherServersState(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	q := r.browse(u)
	err = r.m.CompleteFor(context.Background(), "other", q)
	if !errors.Is(err, domain.ErrSignInOtherServer) {
		t.Fatalf("pasted for another server: got %v, want ErrSignInOtherServer", err)
	}
	if got := r.state(); got != domain.AuthSigningIn {
		t.Fatalf("state after the refusal: got %s, want %s", got, domain.AuthSigningIn)
	}
	if n := len(r.fx.TokenRequests()); n != 0 {
		t.Fatalf("the code was exchanged %d times after a refusal", n)
	}
	if err := r.m.CompleteFor(context.Background(), "remote", q); err != nil {
		t.Fatalf("pasted for its own server: %v", err)
	}
	if got := r.state(); got != domain.AuthSignedIn {
		t.Fatalf("state: got %s, want %s", got, domain.AuthSignedIn)
	}
}
