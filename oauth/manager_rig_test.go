package oauth_test

import (
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

const mgrRedirect = "http://127.0.0.1:7391/oauth/callback"

// mgrRig is a manager over a real SQLite store, in front of a fixture.
type mgrRig struct {
	t       *testing.T
	fx      *oauthtest.Server
	m       *oauth.Manager
	clock   *domaintest.Clock
	dir     string
	rt      http.RoundTripper
	sent    *sentTokens
	changes chan string
	db      *sqlite.DB
	key     []byte
}

// sentTokens records the bearer tokens requests carried, as the resource
// server saw them.
type sentTokens struct {
	mu   sync.Mutex
	seen []string
}

func (s *sentTokens) RoundTrip(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.seen = append(s.seen, strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer "))
	s.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (s *sentTokens) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) == 0 {
		return ""
	}
	return s.seen[len(s.seen)-1]
}

func newMgrRig(t *testing.T, opts oauthtest.Options) *mgrRig {
	t.Helper()
	r := &mgrRig{t: t, fx: oauthtest.New(t, opts), clock: domaintest.NewClock(time.Now()),
		dir: t.TempDir(), sent: &sentTokens{}, changes: make(chan string, 64)}
	db, err := sqlite.Open(context.Background(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	key := make([]byte, oauth.KeySize)
	_, _ = rand.Read(key)
	sealer, err := oauth.NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	r.db, r.key = db, key
	r.m = oauth.NewManager(oauth.ManagerOptions{Store: db.OAuthStore(), Sealer: sealer, KeySource: domain.KeySourceFile,
		RedirectURI: mgrRedirect, Clock: r.clock, OnChange: func(s string) { r.changes <- s }})
	r.rt = r.m.Transport(domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: r.fx.URL()}, r.sent)
	return r
}

// call sends initialize through the manager's transport.
func (r *mgrRig) call() int {
	r.t.Helper()
	req, err := http.NewRequest(http.MethodPost, r.fx.URL(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := r.rt.RoundTrip(req)
	if err != nil {
		r.t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

func (r *mgrRig) state() domain.AuthState {
	r.t.Helper()
	st := r.m.AuthStatus("remote")
	if st == nil {
		r.t.Fatal("no auth status")
	}
	return st.State
}

// browse plays the browser: it opens the authorization URL and returns
// the query the authorization server sent it back with.
func (r *mgrRig) browse(authURL string) url.Values {
	r.t.Helper()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(authURL)
	if err != nil {
		r.t.Fatal(err)
	}
	_ = resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), mgrRedirect) {
		r.t.Fatalf("authorization answered %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return loc.Query()
}

func (r *mgrRig) signIn() {
	r.t.Helper()
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		r.t.Fatalf("Start: %v", err)
	}
	if got := r.state(); got != domain.AuthSigningIn {
		r.t.Fatalf("state after Start: got %s, want %s", got, domain.AuthSigningIn)
	}
	if name, err := r.m.Complete(context.Background(), r.browse(u)); err != nil || name != "remote" {
		r.t.Fatalf("Complete: got %q, %v", name, err)
	}
}

// drain forgets the changes reported so far.
func (r *mgrRig) drain() {
	for {
		select {
		case <-r.changes:
		default:
			return
		}
	}
}

// waitState waits for a change report after which the state is want.
func (r *mgrRig) waitState(want domain.AuthState) {
	r.t.Helper()
	deadline := time.After(10 * time.Second)
	for r.state() != want {
		select {
		case <-r.changes:
		case <-deadline:
			r.t.Fatalf("state: got %s, want %s", r.state(), want)
		}
	}
}

func mustSealer(t *testing.T, key []byte) *oauth.Sealer {
	t.Helper()
	s, err := oauth.NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
