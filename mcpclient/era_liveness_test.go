package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/demoserver"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// methodLog serves an MCP server over streamable HTTP, noting the
// method of every POST (2026-07-28 names it in the Mcp-Method header), and can stop answering, as a hung
// server would.
type methodLog struct {
	url  string
	hang atomic.Bool

	mu   sync.Mutex // guards sent
	sent []string
}

func serveMethodLog(t *testing.T, srv *server.MCPServer) *methodLog {
	t.Helper()
	l := &methodLog{}
	h := server.NewStreamableHTTPServer(srv)
	stop := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			method := r.Header.Get(mcp.HeaderMethod)
			if method == "" {
				// The handshake revisions name the method in the body only.
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				var msg struct {
					Method string `json:"method"`
				}
				_ = json.Unmarshal(body, &msg)
				method = msg.Method
			}
			l.mu.Lock()
			l.sent = append(l.sent, method)
			l.mu.Unlock()
		}
		if l.hang.Load() {
			select {
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	// Cleanups run last first: the hung handlers return before Close
	// waits for them.
	t.Cleanup(func() { close(stop) })
	l.url = hs.URL + "/mcp"
	return l
}

// since returns the methods sent after the first n.
func (l *methodLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.sent[n:])
}

func (l *methodLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.sent)
}

// probeSends probes s and returns the methods the server was sent
// meanwhile, leaving out the listen stream, which may reopen at any time.
func probeSends(t *testing.T, l *methodLog, s domain.Session) []string {
	t.Helper()
	before := l.count()
	if err := s.Probe(connectCtx(t)); err != nil {
		t.Fatalf("Probe: %v", err)
	}
	return slices.DeleteFunc(l.since(before), func(m string) bool {
		return m == string(mcp.MethodSubscriptionsListen)
	})
}

// On 2026-07-28, which has no ping, the demo server's liveness is checked
// with tools/list, and a demo server that stops answering fails the probe
// within its deadline.
func TestModernProbeListsTheDemoServersTools(t *testing.T) {
	t.Parallel()
	l := serveMethodLog(t, demoserver.New(demoserver.Options{}))
	s := connect(t, mcpclient.New(mcpclient.Options{}), remote(domain.TransportHTTP, l.url), nil)
	if got := s.ProtocolVersion(); got != mcp.ProtocolVersion20260728 {
		t.Fatalf("ProtocolVersion() = %q, want %q", got, mcp.ProtocolVersion20260728)
	}
	if got, want := probeSends(t, l, s), []string{string(mcp.MethodToolsList)}; !slices.Equal(got, want) {
		t.Errorf("the probe sent %q, want %q", got, want)
	}

	l.hang.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := s.Probe(ctx)
	var ce *domain.ConnError
	if !errors.As(err, &ce) || ce.Category != domain.CategoryTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Probe of a server that stopped answering = %v, want a timeout wrapping the deadline", err)
	}
}

// The probe reaches the server even when the list may be reused for an
// hour (ttlMs), and leaves the lists alone: no change is announced.
func TestModernProbeIsNotAnsweredFromTheListCache(t *testing.T) {
	t.Parallel()
	e := startEraServer(t, string(mcp.MethodInitialize),
		server.WithMethodCacheHints(mcp.MethodToolsList, time.Hour.Milliseconds(), mcp.CacheScopePrivate))
	s := connect(t, mcpclient.New(mcpclient.Options{}), e.config(), nil)
	before, err := s.List(connectCtx(t), domain.ListTools)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	for range 2 {
		if err := s.Probe(connectCtx(t)); err != nil {
			t.Fatalf("Probe: %v", err)
		}
	}
	if n := e.count(string(mcp.MethodToolsList)); n != 3 {
		t.Errorf("tools/list sent %d times for a list and two probes, want 3", n)
	}
	after, err := s.List(connectCtx(t), domain.ListTools)
	if err != nil || len(after.Tools) != len(before.Tools) {
		t.Errorf("List after the probes = %d tools, %v; want the %d cached", len(after.Tools), err, len(before.Tools))
	}
	if n := e.count(string(mcp.MethodToolsList)); n != 3 {
		t.Errorf("the probes dropped the cached list: tools/list sent %d times, want 3", n)
	}
	select {
	case k := <-s.Changes():
		t.Errorf("a probe announced a %s change", k)
	default:
	}
}

// The probe asks for the first list the server declared, server/discover
// only when it declared none, and ping on the handshake revisions.
func TestProbeAsksForADeclaredList(t *testing.T) {
	t.Parallel()
	prompts := func(s *server.MCPServer) {
		s.AddPrompt(mcp.NewPrompt("p"), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("", nil), nil
		})
	}
	resources := func(s *server.MCPServer) {
		s.AddResource(mcp.NewResource("probe://r", "r"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return nil, nil
		})
	}
	tests := []struct {
		name    string
		opts    []server.ServerOption
		add     []func(*server.MCPServer)
		version string
		want    mcp.MCPMethod
	}{
		{"prompts before resources", []server.ServerOption{server.WithPromptCapabilities(false), server.WithResourceCapabilities(false, false)},
			[]func(*server.MCPServer){prompts, resources}, "", mcp.MethodPromptsList},
		{"resources", []server.ServerOption{server.WithResourceCapabilities(false, false)},
			[]func(*server.MCPServer){resources}, "", mcp.MethodResourcesList},
		{"nothing declared", nil, nil, "", mcp.MethodServerDiscover},
		{"2025-11-25", []server.ServerOption{server.WithPromptCapabilities(false)},
			[]func(*server.MCPServer){prompts}, mcp.ProtocolVersion20251125, mcp.MethodPing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := server.NewMCPServer("probe", "1", tt.opts...)
			for _, add := range tt.add {
				add(srv)
			}
			l := serveMethodLog(t, srv)
			s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: tt.version}), remote(domain.TransportHTTP, l.url), nil)
			if got, want := probeSends(t, l, s), []string{string(tt.want)}; !slices.Equal(got, want) {
				t.Errorf("the probe sent %q, want %q", got, want)
			}
		})
	}
}
