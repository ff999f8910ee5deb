package oauthtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// WriteScope is the scope the "write" tool needs beyond what the sign-in
// granted: calling it without gets 403 insufficient_scope (step-up).
const WriteScope = "write"

// newMCPHandler is a real mcp-go streamable HTTP server with the tools
// "echo" (returns its text) and "write" (needs WriteScope).
func newMCPHandler() http.Handler {
	s := server.NewMCPServer("oauthtest", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Returns its text."), mcp.WithString("text")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	s.AddTool(mcp.NewTool("write", mcp.WithDescription("Needs the write scope."), mcp.WithString("text")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("written: " + req.GetString("text", "")), nil
		})
	return server.NewStreamableHTTPServer(s)
}

// rpcPeek is the part of a JSON-RPC request the bearer check needs.
type rpcPeek struct {
	Method string `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
}

// protect puts bearer authentication in front of the MCP handler: 401
// with a challenge without a live token, 403 insufficient_scope when the
// token lacks RequiredScopes (or WriteScope for the write tool).
func (s *Server) protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var rpc rpcPeek
		_ = json.Unmarshal(body, &rpc)
		s.mu.Lock()
		s.counts.MCP++
		s.mu.Unlock()

		if s.opts.PublicInitialize && (rpc.Method == "initialize" || strings.HasPrefix(rpc.Method, "notifications/")) {
			next.ServeHTTP(w, r)
			return
		}
		tok, sent := bearer(r)
		g, ok := s.lookupAccess(tok)
		if !ok {
			errCode := ""
			if sent {
				errCode = "invalid_token"
			}
			s.challenge(w, http.StatusUnauthorized, errCode, s.opts.ChallengeScopes)
			return
		}
		need := s.opts.RequiredScopes
		if rpc.Method == "tools/call" && rpc.Params.Name == "write" {
			need = union(need, []string{WriteScope})
		}
		if !hasAll(g.scopes, need) {
			s.challenge(w, http.StatusForbidden, "insufficient_scope", union(g.scopes, need))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, tok, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(tok), true
}

func (s *Server) lookupAccess(tok string) (accessGrant, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.access[tok]
	if !ok || !s.opts.Now().Before(g.expiry) {
		return accessGrant{}, false
	}
	return g, true
}

// challenge answers status with a Bearer WWW-Authenticate header naming
// the metadata (when advertised), the scopes and the error.
func (s *Server) challenge(w http.ResponseWriter, status int, errCode string, scopes []string) {
	var parts []string
	if s.opts.PRM == PRMAdvertised || s.opts.PRM == PRMCustom {
		parts = append(parts, fmt.Sprintf("resource_metadata=%q", s.ts.URL+s.prmPath()))
	}
	if len(scopes) > 0 {
		parts = append(parts, fmt.Sprintf("scope=%q", joinScopes(scopes)))
	}
	if errCode != "" {
		parts = append(parts, fmt.Sprintf("error=%q", errCode))
	}
	h := "Bearer"
	if len(parts) > 0 {
		h += " " + strings.Join(parts, ", ")
	}
	w.Header().Set("WWW-Authenticate", h)
	s.mu.Lock()
	if status == http.StatusUnauthorized {
		s.counts.Unauthorized++
	} else {
		s.counts.Forbidden++
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"error":%q}`, map[int]string{401: "unauthorized", 403: "insufficient_scope"}[status])
}
