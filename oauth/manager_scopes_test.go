package oauth_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// lockedBuffer is a log sink safe for the manager's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A server that challenges with more scopes than anyone needs gets at
// most 64 of them asked for, and the log says so once, not per request.
func TestManagerCapsChallengeScopesAndLogsOnce(t *testing.T) {
	t.Parallel()
	scopes := make([]string, 100)
	for i := range scopes {
		scopes[i] = fmt.Sprintf("scope%d", i)
	}
	r := newMgrRig(t, oauthtest.Options{ChallengeScopes: scopes})
	var logs lockedBuffer
	sealer, err := oauth.NewSealer(r.key)
	if err != nil {
		t.Fatal(err)
	}
	r.m = oauth.NewManager(oauth.ManagerOptions{Store: r.db.OAuthStore(), Sealer: sealer, RedirectURI: mgrRedirect, Clock: r.clock,
		Log: slog.New(slog.NewTextHandler(&logs, nil))})
	r.rt = r.m.Transport(domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: r.fx.URL()}, r.sent)
	r.call()
	r.call()
	if st := r.m.AuthStatus("remote"); len(st.Scopes) != 64 || st.Scopes[63] != "scope63" {
		t.Errorf("status scopes: got %d, want the first 64", len(st.Scopes))
	}
	u, err := r.m.Start(context.Background(), "remote")
	if err != nil {
		t.Fatal(err)
	}
	r.browse(u)
	reqs := r.fx.AuthorizeRequests()
	if n := len(strings.Fields(reqs[len(reqs)-1].Get("scope"))); n != 64 {
		t.Errorf("asked for %d scopes, want 64", n)
	}
	if n := strings.Count(logs.String(), "scopes left out"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, logs.String())
	}
}
