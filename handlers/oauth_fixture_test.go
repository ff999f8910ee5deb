package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// fakeSignIns is a domain.SignIns that answers as told and records what
// it was asked.
type fakeSignIns struct {
	mu         sync.Mutex // guards every field
	status     map[string]*domain.AuthStatus
	startURL   string
	startErr   error
	completeTo string // the server a Complete belongs to
	completeEr error
	callbacks  []url.Values
	signedOut  []string
	clients    []string // server#id#secret
}

var _ domain.SignIns = (*fakeSignIns)(nil)

func newFakeSignIns() *fakeSignIns {
	return &fakeSignIns{status: map[string]*domain.AuthStatus{}, startURL: "https://auth.example.com/authorize?state=s1&client_id=c"}
}

func (f *fakeSignIns) AuthStatus(server string) *domain.AuthStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status[server]
}

func (f *fakeSignIns) Start(_ context.Context, server string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.startErr != nil {
		return "", f.startErr
	}
	f.status[server] = &domain.AuthStatus{State: domain.AuthSigningIn}
	return f.startURL, nil
}

func (f *fakeSignIns) Complete(_ context.Context, q url.Values) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.callbacks = append(f.callbacks, q)
	if f.completeEr != nil {
		return f.completeTo, f.completeEr
	}
	f.status[f.completeTo] = &domain.AuthStatus{State: domain.AuthSignedIn}
	return f.completeTo, nil
}

// CompleteFor refuses a state that belongs to another server's sign-in,
// as the manager does, and otherwise completes as Complete does.
func (f *fakeSignIns) CompleteFor(ctx context.Context, server string, q url.Values) error {
	f.mu.Lock()
	other := f.completeTo != "" && f.completeTo != server
	f.mu.Unlock()
	if other {
		return fmt.Errorf("sign in to %s: %w", server, domain.ErrSignInOtherServer)
	}
	_, err := f.Complete(ctx, q)
	return err
}

func (f *fakeSignIns) SignOut(_ context.Context, server string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.signedOut = append(f.signedOut, server)
	f.status[server] = &domain.AuthStatus{State: domain.AuthSignInNeeded}
	return nil
}

func (f *fakeSignIns) SetClient(_ context.Context, server, id, secret string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clients = append(f.clients, server+"#"+id+"#"+secret)
	return nil
}

func (f *fakeSignIns) set(fn func(*fakeSignIns)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

func newSignInFixture(t *testing.T) (*fixture, *fakeSignIns) {
	t.Helper()
	s := newFakeSignIns()
	f := newFixture(t, func(o *handlers.Options) { o.SignIns = s })
	f.attach(t, stdio("linear"))
	return f, s
}

// page fetches a whole page with no credential at all, as the browser
// coming back from an authorization server may.
func (f *fixture) page(t *testing.T, method, path string, header http.Header, form url.Values) (int, http.Header, *goquery.Document, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(t.Context(), method, f.srv.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultTransport.RoundTrip(req) // no token, no redirects followed
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, doc, string(raw)
}
