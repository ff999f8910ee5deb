package oauth

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// A proxy on this machine (HTTPS_PROXY=http://127.0.0.1:3128) carries
// requests to remote targets: the guard checks the target, not the proxy.
func TestGuardDialThroughALocalProxyChecksTheTarget(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		_, _ = io.WriteString(w, "via proxy "+r.URL.Host)
	}))
	defer proxy.Close()
	pu, _ := url.Parse(proxy.URL)
	base := &http.Transport{Proxy: http.ProxyURL(pu)}
	res := oauthtest.Resolver(map[string]string{
		"mcp.remote.test": "93.184.216.34", "mcp.rebind.test": "127.0.0.1", "meta.rebind.test": "169.254.169.254"})
	c := guardDial(&http.Client{Transport: base}, res)

	resp, err := c.Get("http://mcp.remote.test/.well-known/x")
	if err != nil {
		t.Fatalf("a remote target through a local proxy was refused: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if string(body) != "via proxy mcp.remote.test" {
		t.Fatalf("body %q, want the proxy's answer", body)
	}

	for _, target := range []string{"http://mcp.rebind.test/x", "http://meta.rebind.test/x",
		"http://127.0.0.1:9/x", "http://[fd00:ec2::254]/latest"} {
		_, err := c.Get(target)
		if !errors.Is(err, ErrLocalAddress) {
			t.Errorf("%s through a proxy: got %v, want ErrLocalAddress", target, err)
		}
	}
	if n := asked.Load(); n != 1 {
		t.Fatalf("the proxy was asked %d times, want once (refused targets are not sent)", n)
	}
}

// roundTripFunc is a transport that is not an *http.Transport.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A custom transport cannot be given a dialer; its requests' targets are
// checked instead of being let through unguarded.
func TestGuardDialWrapsACustomTransport(t *testing.T) {
	t.Parallel()
	var sent atomic.Int32
	custom := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent.Add(1)
		return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: r}, nil
	})
	res := oauthtest.Resolver(map[string]string{"mcp.remote.test": "93.184.216.34", "mcp.rebind.test": "127.0.0.1"})
	c := guardDial(&http.Client{Transport: custom}, res)
	if _, ok := c.Transport.(*guardedTransport); !ok {
		t.Fatalf("a custom transport was kept as %T, unguarded", c.Transport)
	}
	resp, err := c.Get("https://mcp.remote.test/x")
	if err != nil {
		t.Fatalf("remote target: %v", err)
	}
	_ = resp.Body.Close()
	for _, target := range []string{"https://mcp.rebind.test/x", "http://169.254.169.254/latest"} {
		if _, err := c.Get(target); !errors.Is(err, ErrLocalAddress) {
			t.Errorf("%s: got %v, want ErrLocalAddress", target, err)
		}
	}
	if n := sent.Load(); n != 1 {
		t.Fatalf("the custom transport sent %d requests, want 1", n)
	}
}
