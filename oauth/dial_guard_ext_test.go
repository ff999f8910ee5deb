package oauth_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// A remote server whose names resolve to this machine (DNS rebinding, or
// a record pointing at 127.0.0.1) cannot make discovery connect there,
// although no URL names a loopback address.
func TestManagerRefusesNamesThatResolveToThisMachine(t *testing.T) {
	t.Parallel()
	var conns atomic.Int32
	local := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a local service was asked for %s", r.URL)
	}))
	local.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	local.StartTLS()
	defer local.Close()
	_, port, _ := net.SplitHostPort(local.Listener.Addr().String())

	db, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	sealer, err := oauth.NewSealer(make([]byte, oauth.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	m := oauth.NewManager(oauth.ManagerOptions{Store: db.OAuthStore(), Sealer: sealer, RedirectURI: mgrRedirect,
		HTTPClient: local.Client(),
		Resolver:   oauthtest.Resolver(map[string]string{"mcp.rebind.test": "127.0.0.1", "meta.rebind.test": "169.254.169.254"})})
	cfg := domain.ServerConfig{Name: "remote", Transport: domain.TransportHTTP, URL: "https://mcp.rebind.test:" + port + "/mcp"}
	m.Transport(cfg, http.DefaultTransport)

	_, err = m.Start(context.Background(), "remote")
	if !errors.Is(err, oauth.ErrLocalAddress) {
		t.Fatalf("Start: got %v, want ErrLocalAddress", err)
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("%d connections reached the local service", n)
	}

}
