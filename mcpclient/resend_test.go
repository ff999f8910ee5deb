package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// breakingServer is an mcp-go server of one era behind a front that
// breaks the event stream of the next request naming a given method (and
// tool), as a dropped connection would: it starts an SSE response, sends
// half an event and closes the connection.
type breakingServer struct {
	url string

	mu    sync.Mutex // guards cut and seen
	cut   string     // "method" or "tools/call name"; "" cuts nothing
	seen  map[string]int
	calls map[string]int // tool runs, by name
}

// startBreakingServer serves 2026-07-28 only, or 2025-11-25 only when
// refuse is server/discover.
func startBreakingServer(t *testing.T, refuse mcp.MCPMethod) *breakingServer {
	t.Helper()
	b := &breakingServer{seen: map[string]int{}, calls: map[string]int{}}
	srv := server.NewMCPServer("breaking", "1", server.WithToolCapabilities(true), server.WithResourceCapabilities(false, true))
	tool := func(name string, opts ...mcp.ToolOption) {
		srv.AddTool(mcp.NewTool(name, opts...), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			b.mu.Lock()
			b.calls[name]++
			b.mu.Unlock()
			return mcp.NewToolResultText(name + " done"), nil
		})
	}
	tool("lookup", mcp.WithReadOnlyHintAnnotation(true))
	tool("upsert", mcp.WithReadOnlyHintAnnotation(false), mcp.WithIdempotentHintAnnotation(true))
	tool("append", mcp.WithReadOnlyHintAnnotation(false), mcp.WithIdempotentHintAnnotation(false))
	srv.AddResource(mcp.NewResource("note://a", "a"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "note://a", Text: "hello"}}, nil
	})
	h := server.NewStreamableHTTPServer(srv)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		key := msg.Method
		if msg.Method == string(mcp.MethodToolsCall) {
			key += " " + msg.Params.Name
		}
		b.mu.Lock()
		b.seen[key]++
		cut := key != "" && key == b.cut
		if cut {
			b.cut = ""
		}
		b.mu.Unlock()
		if msg.Method == string(refuse) {
			http.Error(w, "Bad Request: not served here", http.StatusBadRequest)
			return
		}
		if cut {
			breakStream(t, w)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	b.url = hs.URL + "/mcp"
	return b
}

// breakStream answers with an event stream that breaks off mid-event.
func breakStream(t *testing.T, w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",")
	rc := http.NewResponseController(w)
	if err := rc.Flush(); err != nil {
		t.Errorf("flush: %v", err)
		return
	}
	conn, _, err := rc.Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	_ = conn.Close()
}

// breakNext makes the next request for key break.
func (b *breakingServer) breakNext(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cut = key
}

func (b *breakingServer) count(key string) (sent, ran int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	name, _ := strings.CutPrefix(key, string(mcp.MethodToolsCall)+" ")
	return b.seen[key], b.calls[name]
}

// On a 2026-07-28 server a request whose response stream breaks is sent
// again as a new request when repeating it is safe: lists, reads, and
// tools marked read-only or idempotent.
func TestModernBrokenStreamIsReissued(t *testing.T) {
	t.Parallel()
	b := startBreakingServer(t, mcp.MethodInitialize)
	s := connect(t, mcpclient.New(mcpclient.Options{}), remote(domain.TransportHTTP, b.url), nil)
	if got := s.ProtocolVersion(); got != mcp.ProtocolVersion20260728 {
		t.Fatalf("ProtocolVersion() = %q, want 2026-07-28", got)
	}

	b.breakNext(string(mcp.MethodToolsList))
	caps, err := s.List(connectCtx(t), domain.ListTools)
	if err != nil || len(caps.Tools) != 3 {
		t.Fatalf("List(tools) after a broken stream = %d tools, %v; want 3", len(caps.Tools), err)
	}
	if sent, _ := b.count(string(mcp.MethodToolsList)); sent != 2 {
		t.Errorf("tools/list sent %d times, want 2 (the broken one and the re-issue)", sent)
	}

	b.breakNext(string(mcp.MethodResourcesRead))
	res, err := s.ReadResource(connectCtx(t), "note://a")
	if err != nil || !strings.Contains(string(res), "hello") {
		t.Errorf("ReadResource after a broken stream = %s, %v; want hello", res, err)
	}
	if sent, _ := b.count(string(mcp.MethodResourcesRead)); sent != 2 {
		t.Errorf("resources/read sent %d times, want 2", sent)
	}

	for _, tool := range []string{"lookup", "upsert"} {
		key := string(mcp.MethodToolsCall) + " " + tool
		b.breakNext(key)
		res, err := s.CallTool(connectCtx(t), tool, json.RawMessage(`{}`), nil)
		if err != nil || !strings.Contains(string(res), tool+" done") {
			t.Errorf("CallTool(%s) after a broken stream = %s, %v; want it re-issued and done", tool, res, err)
		}
		if sent, ran := b.count(key); sent != 2 || ran != 1 {
			t.Errorf("%s: sent %d times and ran %d, want 2 and 1", tool, sent, ran)
		}
	}
}

// A tool that may not be safe to repeat is not sent again, and the error
// says why.
func TestModernBrokenStreamOfUnsafeToolIsNotReissued(t *testing.T) {
	t.Parallel()
	b := startBreakingServer(t, mcp.MethodInitialize)
	s := connect(t, mcpclient.New(mcpclient.Options{}), remote(domain.TransportHTTP, b.url), nil)
	if _, err := s.List(connectCtx(t), domain.ListTools); err != nil {
		t.Fatalf("List(tools): %v", err)
	}
	key := string(mcp.MethodToolsCall) + " append"
	b.breakNext(key)
	_, err := s.CallTool(connectCtx(t), "append", json.RawMessage(`{}`), nil)
	if err == nil || !strings.Contains(err.Error(), "not sent again") || !strings.Contains(err.Error(), "safe to repeat") {
		t.Errorf("CallTool(append) after a broken stream = %v; want an error saying it was not sent again", err)
	}
	if sent, ran := b.count(key); sent != 1 || ran != 0 {
		t.Errorf("append: sent %d times and ran %d, want 1 and 0", sent, ran)
	}
}

// A 2025 session keeps mcp-go's own handling: a stream that breaks
// without an event ID to resume from fails the request, which is not
// sent again.
func TestLegacyBrokenStreamIsNotReissued(t *testing.T) {
	t.Parallel()
	b := startBreakingServer(t, mcp.MethodServerDiscover)
	s := connect(t, mcpclient.New(mcpclient.Options{}), remote(domain.TransportHTTP, b.url), nil)
	if got := s.ProtocolVersion(); got != mcp.ProtocolVersion20251125 {
		t.Fatalf("ProtocolVersion() = %q, want 2025-11-25", got)
	}
	b.breakNext(string(mcp.MethodToolsList))
	if _, err := s.List(connectCtx(t), domain.ListTools); err == nil {
		t.Errorf("List(tools) after a broken stream on 2025-11-25 succeeded; want the break reported")
	}
	if sent, _ := b.count(string(mcp.MethodToolsList)); sent != 1 {
		t.Errorf("tools/list sent %d times on 2025-11-25, want 1", sent)
	}
}
