package oauthtest

import (
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a running fixture: an authorization server and an MCP server
// on one httptest origin. All methods are safe for concurrent use.
type Server struct {
	opts Options
	ts   *httptest.Server

	// mu guards everything below: handlers run concurrently.
	mu        sync.Mutex
	clients   map[string]clientInfo
	codes     map[string]codeGrant
	access    map[string]accessGrant
	refresh   map[string]refreshGrant
	hits      map[string]int
	counts    Counts
	authReqs  []url.Values
	tokenReqs []TokenRequest
	regs      []map[string]any
	refFail   *failure
	deny      *failure
	nextID    int
}

// Counts are how many requests each endpoint answered.
type Counts struct {
	Authorize, Token, Register, Refresh, Revoke int
	// MCP counts requests to the MCP endpoint; Unauthorized and
	// Forbidden how many of them got 401 and 403.
	MCP, Unauthorized, Forbidden int
}

// TokenRequest is one request to the token endpoint as received.
type TokenRequest struct {
	Form url.Values
	// BasicID and BasicSecret are the decoded HTTP Basic credentials;
	// HasBasic says whether any were sent.
	BasicID, BasicSecret string
	HasBasic             bool
}

type failure struct {
	status      int
	code, descr string
}

type clientInfo struct {
	secret    string
	method    string
	redirects []string // empty: any
}

type codeGrant struct {
	clientID, redirectURI, challenge, resource string
	scopes                                     []string
}

type accessGrant struct {
	clientID string
	scopes   []string
	expiry   time.Time
}

type refreshGrant struct {
	clientID string
	scopes   []string
}

// New starts a fixture and stops it when the test ends.
func New(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s := Start(opts)
	tb.Cleanup(s.Close)
	return s
}

// Start starts a fixture; the caller must Close it.
func Start(opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.TokenLifetime == 0 {
		opts.TokenLifetime = time.Hour
	}
	if opts.AuthMethod == "" {
		opts.AuthMethod = "none"
	}
	s := &Server{
		opts:    opts,
		clients: map[string]clientInfo{},
		codes:   map[string]codeGrant{},
		access:  map[string]accessGrant{},
		refresh: map[string]refreshGrant{},
		hits:    map[string]int{},
	}
	for id, secret := range opts.PreRegistered {
		m := opts.AuthMethod
		if secret == "" {
			m = "none"
		} else if m == "none" {
			m = "client_secret_basic"
		}
		s.clients[id] = clientInfo{secret: secret, method: m}
	}
	s.ts = httptest.NewServer(s.routes())
	return s
}

// Close stops the fixture.
func (s *Server) Close() { s.ts.Close() }

// Origin is the fixture's scheme://host:port.
func (s *Server) Origin() string { return s.ts.URL }

// URL is the MCP endpoint, the URL a server's settings point at.
func (s *Server) URL() string { return s.ts.URL + "/mcp" }

// Issuer is the authorization server's issuer identifier.
func (s *Server) Issuer() string { return s.ts.URL + s.opts.IssuerPath }

// Client is an http.Client for the fixture (plain, no redirects
// followed off the fixture).
func (s *Server) Client() *http.Client { return s.ts.Client() }

// Counts returns how many requests each endpoint has answered so far.
func (s *Server) Counts() Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts
}

// Hits returns how many requests asked for path (any method, any answer,
// 404s included), e.g. to check a well-known URL was never fetched.
func (s *Server) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// AuthorizeRequests returns the query of every authorization request.
func (s *Server) AuthorizeRequests() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.authReqs)
}

// TokenRequests returns every token endpoint request (exchanges and
// refreshes).
func (s *Server) TokenRequests() []TokenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tokenReqs)
}

// Registrations returns the JSON body of every registration request.
func (s *Server) Registrations() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.regs)
}

// FailRefresh makes refresh requests fail with status and an OAuth error
// code (e.g. 400 "invalid_grant", or 503 "" for a passing outage) until
// called with status 0.
func (s *Server) FailRefresh(status int, code string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if status == 0 {
		s.refFail = nil
		return
	}
	s.refFail = &failure{status: status, code: code}
}

// DenyAuthorize makes the authorization endpoint redirect back with this
// error (e.g. "access_denied") until called with an empty code.
func (s *Server) DenyAuthorize(code, description string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if code == "" {
		s.deny = nil
		return
	}
	s.deny = &failure{code: code, descr: description}
}

// ExpireAccessTokens forgets every access token issued so far (refresh
// tokens stay), so the next MCP request gets 401 invalid_token.
func (s *Server) ExpireAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.access)
}

// IssueToken grants tokens for scopes directly, without a sign-in, to a
// pre-registered or registered clientID (any string works for tests that
// only need a valid bearer). It returns the access and refresh tokens.
func (s *Server) IssueToken(clientID string, scopes []string) (access, refresh string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tr := s.issueLocked(clientID, scopes)
	return tr.AccessToken, tr.RefreshToken
}

// ValidAccessToken reports whether tok is a live access token.
func (s *Server) ValidAccessToken(tok string) bool {
	_, ok := s.lookupAccess(tok)
	return ok
}

// routes counts every request by path, then dispatches it.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	ip := s.opts.IssuerPath
	mux.Handle("/mcp", s.protect(newMCPHandler()))
	if p := s.prmPath(); p != "" {
		mux.HandleFunc("GET "+p, s.serveResourceMetadata)
	}
	if p := s.asMetadataPath(); p != "" {
		mux.HandleFunc("GET "+p, s.serveServerMetadata)
	}
	mux.HandleFunc("GET "+ip+"/authorize", s.serveAuthorize)
	mux.HandleFunc("POST "+ip+"/token", s.serveToken)
	if !s.opts.NoDCR {
		mux.HandleFunc("POST "+ip+"/register", s.serveRegister)
	}
	if s.opts.Revocation {
		mux.HandleFunc("POST "+ip+"/revoke", s.serveRevoke)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	})
}

func (s *Server) prmPath() string {
	switch s.opts.PRM {
	case PRMAdvertised, PRMPath:
		return "/.well-known/oauth-protected-resource/mcp"
	case PRMCustom:
		return "/custom/metadata/location.json"
	case PRMRoot:
		return "/.well-known/oauth-protected-resource"
	}
	return ""
}

func (s *Server) asMetadataPath() string {
	ip := s.opts.IssuerPath
	switch s.opts.AS {
	case ASOAuth:
		if s.opts.MetadataAtRoot {
			return "/.well-known/oauth-authorization-server"
		}
		return "/.well-known/oauth-authorization-server" + ip
	case ASOpenIDInsert:
		return "/.well-known/openid-configuration" + ip
	case ASOpenIDAppend:
		return ip + "/.well-known/openid-configuration"
	}
	return ""
}

// resource is what the protected resource metadata names.
func (s *Server) resource() string {
	switch {
	case s.opts.Resource != "":
		return s.opts.Resource
	case s.opts.PRM == PRMRoot:
		return s.ts.URL
	}
	return s.URL()
}

func randomString() string { return rand.Text() }

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

func joinScopes(s []string) string { return strings.Join(s, " ") }
