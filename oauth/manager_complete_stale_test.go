package oauth_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// codeGate holds the authorization code exchange until released.
type codeGate struct {
	entered chan struct{}
	release chan struct{}
}

func (g *codeGate) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && req.GetBody != nil {
		body, _ := req.GetBody()
		b, _ := io.ReadAll(body)
		if strings.Contains(string(b), "grant_type=authorization_code") {
			g.entered <- struct{}{}
			<-g.release
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

// TestManagerSignInForAChangedAddressIsDiscarded covers a settings change
// that moves the server while its sign-in is being finished: the tokens
// got for the old address are neither used nor saved under the server's
// name, and the sign-in reports that the address changed. The second
// case lets the change race the whole completion (for the race detector);
// either way it may land, the outcome is the same.
func TestManagerSignInForAChangedAddressIsDiscarded(t *testing.T) {
	for _, during := range []bool{true, false} {
		name := map[bool]string{true: "moved-during-the-code-exchange", false: "moved-at-any-moment"}[during]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := newMgrRig(t, oauthtest.Options{Revocation: true})
			gate := &codeGate{entered: make(chan struct{}, 1), release: make(chan struct{})}
			sealer, err := oauth.NewSealer(r.key)
			if err != nil {
				t.Fatal(err)
			}
			r.m = oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: sealer, KeySource: domain.KeySourceFile,
				RedirectURI: mgrRedirect, Clock: r.clock, HTTPClient: &http.Client{Transport: gate}})
			cfg := domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: r.fx.URL()}
			r.rt = r.m.Transport(cfg, r.sent)
			r.call()
			u, err := r.m.Start(context.Background(), "remote")
			if err != nil {
				t.Fatal(err)
			}
			q := r.browse(u)

			done := make(chan error, 1)
			go func() {
				_, err := r.m.Complete(context.Background(), q)
				done <- err
			}()
			moved := cfg
			moved.URL = r.fx.URL() + "?moved=1"
			if during {
				<-gate.entered
				r.m.Transport(moved, r.sent)
				close(gate.release)
				err = <-done
			} else {
				r.m.Transport(moved, r.sent)
				select {
				case <-gate.entered:
					close(gate.release)
					err = <-done
				case err = <-done:
				}
			}

			// A change before Complete takes the flow forgets the flow
			// itself: then the sign-in is unknown rather than moved.
			if !errors.Is(err, domain.ErrSignInUnknown) || (during && !strings.Contains(err.Error(), "address changed")) {
				t.Fatalf("Complete: got %v, want the address-changed failure", err)
			}
			if st := r.m.AuthStatus("remote"); st != nil && st.State == domain.AuthSignedIn {
				t.Fatal("signed in with tokens got for the old address")
			}
			if during && r.fx.Counts().Revoke == 0 {
				t.Error("the discarded tokens were not revoked")
			}
			for _, c := range []domain.ServerConfig{cfg, moved} {
				again := oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: sealer, RedirectURI: mgrRedirect, Clock: r.clock})
				again.Transport(c, http.DefaultTransport)
				if st := again.AuthStatus("remote"); st != nil && st.State == domain.AuthSignedIn {
					t.Fatalf("stored tokens loaded for %s", c.URL)
				}
			}
		})
	}
}
