package oauthtest

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// SignIn signs server in through s as a person would: it starts the
// sign-in, plays the browser on the authorization URL up to the redirect
// back (which the fixture's /authorize answers at once), and completes the
// sign-in with that redirect's query.
func SignIn(t testing.TB, s domain.SignIns, server string) {
	t.Helper()
	u, err := s.Start(context.Background(), server)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	back, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Complete(context.Background(), back.Query()); err != nil {
		t.Fatalf("Complete: %v", err)
	}
}
