package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/switchboard-mcp/switchboard/domain"
)

// eraServer is an mcp-go streamable HTTP server (which serves both eras)
// behind a front that can refuse either era, as a server of one era only
// would, and counts the methods it was sent.
type eraServer struct {
	srv *server.MCPServer
	url string
	// refuse is the method answered with a plain 400: "initialize" makes a
	// 2026-07-28-only server, "server/discover" a 2025-only one.
	refuse atomic.Value // string
	// refuseWith, when set, is the JSON body of the refusal instead of
	// plain text.
	refuseWith atomic.Value // string
	// cutListen, when set, ends the next subscriptions/listen stream
	// shortly after it opens, as a dropped connection would.
	cutListen atomic.Bool

	mu     sync.Mutex // guards seen and listen
	seen   map[string]int
	listen []string // the body of every subscriptions/listen request
}

func startEraServer(t *testing.T, refuse string, opts ...server.ServerOption) *eraServer {
	t.Helper()
	e := &eraServer{seen: map[string]int{}}
	e.refuse.Store(refuse)
	e.srv = server.NewMCPServer("era", "1", append([]server.ServerOption{server.WithToolCapabilities(true)}, opts...)...)
	e.srv.AddTool(mcp.NewTool("echo", mcp.WithString("message")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("message", "")), nil
	})
	// confirm asks its client, the 2026-07-28 way, then reports the answer.
	e.srv.AddTool(mcp.NewTool("confirm"), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if answer := server.ElicitationResponse(req.Params.InputResponses, "ok"); answer != nil {
			b, _ := json.Marshal(answer)
			return mcp.NewToolResultText(string(b)), nil
		}
		if roots, ok := server.InputResponse(req.Params.InputResponses, "roots"); ok {
			b, _ := json.Marshal(roots)
			return mcp.NewToolResultText(string(b)), nil
		}
		return server.NewInputRequestBuilder("state-1").
			Elicit("ok", mcp.ElicitationParams{Message: "Sure?", RequestedSchema: map[string]any{"type": "object"}}).
			ToolResult(), nil
	})
	e.srv.AddTool(mcp.NewTool("roots"), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if roots, ok := server.InputResponse(req.Params.InputResponses, "roots"); ok {
			b, _ := json.Marshal(roots)
			return mcp.NewToolResultText(string(b)), nil
		}
		return server.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
	})
	// grow adds a tool, which a listening client hears about.
	e.srv.AddTool(mcp.NewTool("grow"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		e.srv.AddTool(mcp.NewTool("grown"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("grown"), nil
		})
		return mcp.NewToolResultText("grew"), nil
	})
	h := server.NewStreamableHTTPServer(e.srv)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		var msg struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		e.mu.Lock()
		e.seen[msg.Method]++
		if msg.Method == string(mcp.MethodSubscriptionsListen) {
			e.listen = append(e.listen, string(body))
		}
		e.mu.Unlock()
		if msg.Method != "" && msg.Method == e.refuse.Load().(string) {
			if body, _ := e.refuseWith.Load().(string); body != "" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte(body))
				return
			}
			http.Error(w, "Bad Request: not served here", http.StatusBadRequest)
			return
		}
		if msg.Method == string(mcp.MethodSubscriptionsListen) && e.cutListen.CompareAndSwap(true, false) {
			ctx, cancel := context.WithCancel(r.Context())
			time.AfterFunc(100*time.Millisecond, cancel)
			r = r.WithContext(ctx)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	e.url = hs.URL + "/mcp"
	return e
}

// count is how many requests of method the server was sent.
func (e *eraServer) count(method string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen[method]
}

func (e *eraServer) config() domain.ServerConfig {
	return remote(domain.TransportHTTP, e.url)
}

// listenBodies is every subscriptions/listen request the server was sent.
func (e *eraServer) listenBodies() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.listen...)
}
