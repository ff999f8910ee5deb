package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

func TestManagerAuthorizationErrorIsShownForKnownState(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	r.fx.DenyAuthorize("access_denied", "the person said no")
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	name, err := r.m.Complete(context.Background(), r.browse(u))
	if err == nil || name != "remote" || !strings.Contains(err.Error(), "the person said no") {
		t.Fatalf("Complete: got %q, %v", name, err)
	}
	if st := r.m.AuthStatus("remote"); st.State != domain.AuthSignInNeeded || !strings.Contains(st.Detail, "said no") {
		t.Fatalf("status: got %+v", st)
	}
}

// TestManagerChecksIssuerBeforeShowingAnError covers a mix-up: an error
// response from another authorization server must not have its words
// shown as this server's.
func TestManagerChecksIssuerBeforeShowingAnError(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	r.call()
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	au, _ := url.Parse(u)
	q := url.Values{"state": {au.Query().Get("state")}, "error": {"access_denied"},
		"error_description": {"call 555-0100 to restore access"}, "iss": {"https://evil.example.com"}}
	_, err = r.m.Complete(context.Background(), q)
	if !errors.Is(err, oauth.ErrIssuerMismatch) || strings.Contains(err.Error(), "555-0100") {
		t.Fatalf("err = %v, want the issuer mismatch without the other server's words", err)
	}
}

// TestManagerErrorsAreRedacted covers errors that quote the server's
// address: a secret in its query must not reach the API or the page.
func TestManagerErrorsAreRedacted(t *testing.T) {
	t.Parallel()
	r := newMgrRig(t, oauthtest.Options{})
	cfg := domain.ServerConfig{Name: "plain", Transport: domain.TransportHTTP,
		URL: "http://mcp.example.com/mcp?apikey=sekrit-value-123"}
	r.m.Transport(cfg, http.DefaultTransport)
	_, err := r.m.Start(context.Background(), "plain")
	if !errors.Is(err, oauth.ErrInsecureURL) || strings.Contains(err.Error(), "sekrit-value-123") {
		t.Fatalf("err = %v, want ErrInsecureURL without the query secret", err)
	}
}
