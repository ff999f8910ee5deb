package mcpclient_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

func remote(transport domain.Transport, url string) domain.ServerConfig {
	return domain.ServerConfig{Name: "remote", Transport: transport, URL: url}
}

func TestRemoteDemoListsWhatTheServerOffers(t *testing.T) {
	t.Parallel()
	want := demoNames(t)
	for _, transport := range []domain.Transport{domain.TransportHTTP, domain.TransportSSE} {
		t.Run(string(transport), func(t *testing.T) {
			t.Parallel()
			_, url := startDemoRemote(t, string(transport), "127.0.0.1:0")
			// The demo server speaks both eras: streamable HTTP takes the
			// stateless one, legacy SSE stays on the handshake.
			version := mcp.ProtocolVersion20260728
			if transport == domain.TransportSSE {
				version = mcp.ProtocolVersion20251125
			}
			c := mcpclient.New(mcpclient.Options{})
			s := connect(t, c, remote(transport, url), nil)
			if got := s.ProtocolVersion(); got != version {
				t.Errorf("ProtocolVersion() = %q, want %q", got, version)
			}
			if got := namesOf(loadAll(t, s)); !got.equal(want) {
				t.Errorf("lists:\n got %+v\nwant %+v", got, want)
			}
			if err := s.Probe(connectCtx(t)); err != nil {
				t.Errorf("Probe: %v", err)
			}
		})
	}
}

func TestHTTPEverythingListsAndAnnouncesChanges(t *testing.T) {
	t.Parallel()
	_, url := startEverythingHTTP(t)
	s := connect(t, mcpclient.New(mcpclient.Options{}), remote(domain.TransportHTTP, url), nil)
	caps := loadAll(t, s)
	got := []int{len(caps.Tools), len(caps.Resources), len(caps.ResourceTemplates), len(caps.Prompts)}
	want := []int{everythingTools, everythingResources, everythingTemplates, everythingPrompts}
	if !slices.Equal(got, want) {
		t.Errorf("tools, resources, templates, prompts = %v, want %v", got, want)
	}
	if err := s.Probe(connectCtx(t)); err != nil {
		t.Errorf("Probe: %v", err)
	}
	// The change arrives on the standalone GET stream, not in the reply.
	_, err := s.CallTool(connectCtx(t), "gzip-file-as-resource",
		json.RawMessage(`{"name": "hello.txt.gz", "data": "data:text/plain;base64,aGVsbG8=", "outputType": "resourceLink"}`), nil)
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	waitChange(t, s, domain.ListResources)
}

// A restarted stateful server has forgotten the session: mcp-go servers
// answer 404, TypeScript ones 400. (mcp-go's default session manager
// accepts any session ID, so the demo server never forgets one.)
func TestHTTPRestartedServerEndsSession(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// start runs the server on addr, or on a free port when addr is "".
		start func(t *testing.T, addr string) (*serverProc, string)
	}{
		{"mcp-go", func(t *testing.T, addr string) (*serverProc, string) {
			if addr == "" {
				addr = "127.0.0.1:0"
			}
			return startFixtureHTTP(t, addr)
		}},
		{"everything", func(t *testing.T, addr string) (*serverProc, string) {
			if addr == "" {
				return startEverythingHTTP(t)
			}
			_, port, _ := net.SplitHostPort(addr)
			cmd := exec.Command("node", everything(t), "streamableHttp")
			cmd.Env = append(os.Environ(), "PORT="+port)
			p, _ := startServer(t, cmd, "listening on port", true)
			return p, "http://" + addr + "/mcp"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			first, endpoint := tt.start(t, "")
			// Only the handshake era has a session to forget.
			c := mcpclient.New(mcpclient.Options{ProtocolVersion: mcp.ProtocolVersion20251125})
			s := connect(t, c, remote(domain.TransportHTTP, endpoint), nil)
			first.kill()
			u, err := url.Parse(endpoint)
			if err != nil {
				t.Fatal(err)
			}
			tt.start(t, u.Host)
			err = s.Probe(connectCtx(t))
			if got := domain.Categorize(err); got != domain.CategorySession {
				t.Errorf("Probe after restart = %v (%s), want session", err, got)
			}
			// The GET stream may have found the server down first.
			if ce := waitDone(t, s); ce.Category != domain.CategorySession && ce.Category != domain.CategoryRefused {
				t.Errorf("Err() = %v (%s), want session or refused", ce, ce.Category)
			}
		})
	}
}

func TestRemoteServerGoneEndsSession(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		transport domain.Transport
		version   string
		want      []domain.ErrorCategory
	}{
		// mcp-go retries the GET stream, which then finds the port closed.
		{"http", domain.TransportHTTP, mcp.ProtocolVersion20251125, []domain.ErrorCategory{domain.CategoryRefused}},
		// The reopened subscriptions/listen stream finds the port closed,
		// or the connection it reuses reset.
		{"http-stateless", domain.TransportHTTP, "",
			[]domain.ErrorCategory{domain.CategoryRefused, domain.CategoryProtocol}},
		// The SSE transport reports the end of its stream.
		{"sse", domain.TransportSSE, "", []domain.ErrorCategory{domain.CategoryProtocol}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, url := startDemoRemote(t, string(tt.transport), "127.0.0.1:0")
			s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: tt.version}), remote(tt.transport, url), nil)
			p.kill()
			if ce := waitDone(t, s); !slices.Contains(tt.want, ce.Category) {
				t.Errorf("Err() = %v (%s), want one of %v", ce, ce.Category, tt.want)
			}
		})
	}
}

func TestRemoteHeadersReachTheServer(t *testing.T) {
	t.Parallel()
	_, endpoint := startDemoRemote(t, "http", "127.0.0.1:0")
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	proxy.FlushInterval = -1
	gate := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="test"`)
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(gate.Close)
	c := mcpclient.New(mcpclient.Options{})
	cfg := remote(domain.TransportHTTP, gate.URL+target.Path)

	if ce := connectErr(t, c, cfg, nil); ce.Category != domain.CategoryAuth {
		t.Errorf("without the header: %v (%s), want auth", ce, ce.Category)
	}
	cfg.Headers = map[string]string{"Authorization": "Bearer s3cret"}
	s := connect(t, c, cfg, nil)
	if err := s.Probe(connectCtx(t)); err != nil {
		t.Errorf("Probe with the header: %v", err)
	}
}

func TestRemoteHandshakeStatusCategories(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status int
		want   domain.ErrorCategory
	}{
		{http.StatusUnauthorized, domain.CategoryAuth},
		{http.StatusForbidden, domain.CategoryAuth},
		{http.StatusNotFound, domain.CategoryConfig},
		{http.StatusMethodNotAllowed, domain.CategoryConfig},
		{http.StatusInternalServerError, domain.CategoryProtocol},
	}
	c := mcpclient.New(mcpclient.Options{})
	for _, transport := range []domain.Transport{domain.TransportHTTP, domain.TransportSSE} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s-%d", transport, tt.status), func(t *testing.T) {
				t.Parallel()
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.Error(w, http.StatusText(tt.status), tt.status)
				}))
				t.Cleanup(srv.Close)
				ce := connectErr(t, c, remote(transport, srv.URL+"/mcp"), nil)
				if ce.Category != tt.want {
					t.Errorf("HTTP %d: %v (%s), want %s", tt.status, ce, ce.Category, tt.want)
				}
			})
		}
	}
}

func TestRemoteConnectFailureCategories(t *testing.T) {
	t.Parallel()
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the failed handshakes are the point
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	closedPort := freePort(t)
	tests := []struct {
		name string
		url  string
		want domain.ErrorCategory
	}{
		{"untrusted-certificate", tlsSrv.URL + "/mcp", domain.CategoryTLS},
		{"closed-port", "http://127.0.0.1:" + closedPort + "/mcp", domain.CategoryRefused},
		{"unknown-host", "http://switchboard-test.invalid/mcp", domain.CategoryDNS},
		{"bad-scheme", "ftp://127.0.0.1/mcp", domain.CategoryConfig},
		{"no-host", "http:///mcp", domain.CategoryConfig},
		{"unparsable", "http://[::1/mcp", domain.CategoryConfig},
	}
	c := mcpclient.New(mcpclient.Options{})
	for _, transport := range []domain.Transport{domain.TransportHTTP, domain.TransportSSE} {
		for _, tt := range tests {
			t.Run(string(transport)+"-"+tt.name, func(t *testing.T) {
				t.Parallel()
				ce := connectErr(t, c, remote(transport, tt.url), nil)
				if ce.Category != tt.want {
					t.Errorf("%s: %v (%s), want %s", tt.url, ce, ce.Category, tt.want)
				}
			})
		}
	}
}

// mcp-go logs through Options.Log, never slog.Default, and only at debug
// level: what matters reaches the supervisor as an error.
func TestRemoteMCPGoLogsAtDebugThroughOptionsLog(t *testing.T) {
	t.Parallel()
	_, url := startDemoRemote(t, "http", "127.0.0.1:0")
	logs := domain.NewLineRing(100)
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	// The handshake era, whose GET stream mcp-go logs about.
	connect(t, mcpclient.New(mcpclient.Options{Log: log, ProtocolVersion: mcp.ProtocolVersion20251125}),
		remote(domain.TransportHTTP, url), nil)
	lines := logs.Lines()
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "listening to server forever") })
	if i < 0 {
		t.Fatalf("log = %q, want mcp-go's GET stream line", lines)
	}
	for _, want := range []string{"level=DEBUG", "source=mcp-go", "server=remote"} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("log line %q lacks %s", lines[i], want)
		}
	}
}
