package oauthtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func oauthError(w http.ResponseWriter, status int, code, descr string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": descr})
}

func (s *Server) serveResourceMetadata(w http.ResponseWriter, _ *http.Request) {
	doc := map[string]any{
		"resource":              s.resource(),
		"authorization_servers": []string{s.Issuer()},
	}
	if len(s.opts.ScopesSupported) > 0 {
		doc["scopes_supported"] = s.opts.ScopesSupported
	}
	writeJSON(w, http.StatusOK, doc)
}

func (s *Server) serveServerMetadata(w http.ResponseWriter, _ *http.Request) {
	iss := s.Issuer()
	doc := map[string]any{
		"issuer":                                iss,
		"authorization_endpoint":                iss + "/authorize",
		"token_endpoint":                        iss + "/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
		"token_endpoint_auth_methods_supported": []string{s.opts.AuthMethod},
	}
	if !s.opts.NoDCR {
		doc["registration_endpoint"] = iss + "/register"
	}
	if s.opts.Revocation {
		doc["revocation_endpoint"] = iss + "/revoke"
	}
	switch {
	case s.opts.PlainPKCEOnly:
		doc["code_challenge_methods_supported"] = []string{"plain"}
	case !s.opts.NoPKCEMethods:
		doc["code_challenge_methods_supported"] = []string{"S256"}
	}
	if len(s.opts.ScopesSupported) > 0 {
		doc["scopes_supported"] = s.opts.ScopesSupported
	}
	if s.opts.CIMD {
		doc["client_id_metadata_document_supported"] = true
	}
	if s.opts.Iss {
		doc["authorization_response_iss_parameter_supported"] = true
	}
	writeJSON(w, http.StatusOK, doc)
}

// lookupClient finds a registered or pre-registered client, or accepts
// an https client_id as a metadata document when CIMD is on (the
// fixture does not fetch the document, as the conformance mock does not).
func (s *Server) lookupClient(id string) (clientInfo, bool) {
	s.mu.Lock()
	c, ok := s.clients[id]
	s.mu.Unlock()
	if ok {
		return c, true
	}
	if s.opts.CIMD && strings.HasPrefix(id, "https://") {
		return clientInfo{method: "none"}, true
	}
	return clientInfo{}, false
}

func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.counts.Authorize++
	s.authReqs = append(s.authReqs, q)
	deny := s.deny
	s.mu.Unlock()

	c, ok := s.lookupClient(q.Get("client_id"))
	redirect := q.Get("redirect_uri")
	if !ok {
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	}
	ru, err := url.Parse(redirect)
	if err != nil || redirect == "" || (len(c.redirects) > 0 && !slices.Contains(c.redirects, redirect)) {
		http.Error(w, "redirect_uri not registered", http.StatusBadRequest)
		return
	}
	back := func(params url.Values) {
		params.Set("state", q.Get("state"))
		if s.opts.WrongIss != "" {
			params.Set("iss", s.opts.WrongIss)
		} else if s.opts.Iss {
			params.Set("iss", s.Issuer())
		}
		rq := ru.Query()
		for k, v := range params {
			rq[k] = v
		}
		u := *ru
		u.RawQuery = rq.Encode()
		http.Redirect(w, r, u.String(), http.StatusFound)
	}
	switch {
	case deny != nil:
		back(url.Values{"error": {deny.code}, "error_description": {deny.descr}})
		return
	case q.Get("response_type") != "code":
		back(url.Values{"error": {"unsupported_response_type"}})
		return
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		back(url.Values{"error": {"invalid_request"}, "error_description": {"PKCE S256 is required"}})
		return
	}
	code := "code-" + randomString()
	s.mu.Lock()
	s.codes[code] = codeGrant{
		clientID: q.Get("client_id"), redirectURI: redirect, challenge: q.Get("code_challenge"),
		resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope")),
	}
	s.mu.Unlock()
	back(url.Values{"code": {code}})
}

// tokenResponse is RFC 6749 §5.1.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope,omitempty"`
}

func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	tr := TokenRequest{Form: r.PostForm}
	if id, secret, ok := r.BasicAuth(); ok {
		tr.HasBasic = true
		tr.BasicID, _ = url.QueryUnescape(id)
		tr.BasicSecret, _ = url.QueryUnescape(secret)
	}
	grantType := r.PostForm.Get("grant_type")
	s.mu.Lock()
	s.counts.Token++
	s.tokenReqs = append(s.tokenReqs, tr)
	if grantType == "refresh_token" {
		s.counts.Refresh++
	}
	s.mu.Unlock()

	clientID, err := s.authenticate(tr)
	if err != nil {
		oauthError(w, http.StatusUnauthorized, "invalid_client", err.Error())
		return
	}
	switch grantType {
	case "authorization_code":
		s.exchangeCode(w, tr.Form, clientID)
	case "refresh_token":
		s.refreshToken(w, tr.Form, clientID)
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", grantType)
	}
}

// authenticate checks the client the way its auth method says and
// returns its ID.
func (s *Server) authenticate(tr TokenRequest) (string, error) {
	id := tr.Form.Get("client_id")
	if tr.HasBasic {
		id = tr.BasicID
	}
	c, ok := s.lookupClient(id)
	if !ok {
		return "", fmt.Errorf("unknown client %q", id)
	}
	switch c.method {
	case "client_secret_basic":
		if !tr.HasBasic || tr.BasicSecret != c.secret {
			return "", fmt.Errorf("client_secret_basic required")
		}
		if tr.Form.Has("client_secret") {
			return "", fmt.Errorf("client_secret must not also be in the body")
		}
	case "client_secret_post":
		if tr.HasBasic || tr.Form.Get("client_secret") != c.secret {
			return "", fmt.Errorf("client_secret_post required")
		}
	default:
		if tr.HasBasic || tr.Form.Has("client_secret") {
			return "", fmt.Errorf("public client sent a secret")
		}
	}
	return id, nil
}

func (s *Server) exchangeCode(w http.ResponseWriter, form url.Values, clientID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.codes[form.Get("code")]
	delete(s.codes, form.Get("code"))
	sum := sha256.Sum256([]byte(form.Get("code_verifier")))
	switch {
	case !ok:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown or used code")
	case g.clientID != clientID:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "code issued to another client")
	case g.redirectURI != form.Get("redirect_uri"):
		oauthError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs")
	case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match")
	case g.resource != form.Get("resource"):
		oauthError(w, http.StatusBadRequest, "invalid_target", "resource differs from the authorization request")
	default:
		writeJSON(w, http.StatusOK, s.issueLocked(clientID, g.scopes))
	}
}

func (s *Server) refreshToken(w http.ResponseWriter, form url.Values, clientID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.refFail; f != nil {
		if f.code == "" {
			w.WriteHeader(f.status)
			return
		}
		oauthError(w, f.status, f.code, "refresh refused by the test")
		return
	}
	rt := form.Get("refresh_token")
	g, ok := s.refresh[rt]
	if !ok || g.clientID != clientID {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown refresh token")
		return
	}
	resp := s.issueLocked(clientID, g.scopes)
	if s.opts.RotateRefresh {
		delete(s.refresh, rt)
	} else {
		delete(s.refresh, resp.RefreshToken)
		resp.RefreshToken = ""
	}
	writeJSON(w, http.StatusOK, resp)
}

// issueLocked mints tokens; s.mu must be held.
func (s *Server) issueLocked(clientID string, scopes []string) tokenResponse {
	at := "at-" + randomString()
	s.access[at] = accessGrant{clientID: clientID, scopes: scopes, expiry: s.opts.Now().Add(s.opts.TokenLifetime)}
	resp := tokenResponse{
		AccessToken: at, TokenType: "Bearer",
		ExpiresIn: int64(s.opts.TokenLifetime.Seconds()), Scope: joinScopes(scopes),
	}
	if !s.opts.NoRefreshToken {
		resp.RefreshToken = "rt-" + randomString()
		s.refresh[resp.RefreshToken] = refreshGrant{clientID: clientID, scopes: scopes}
	}
	return resp
}

func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	var raw map[string]any
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&raw); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts.Register++
	s.regs = append(s.regs, raw)
	var redirects []string
	if list, ok := raw["redirect_uris"].([]any); ok {
		for _, v := range list {
			if str, ok := v.(string); ok {
				redirects = append(redirects, str)
			}
		}
	}
	if len(redirects) == 0 {
		oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "redirect_uris is required")
		return
	}
	s.nextID++
	id := fmt.Sprintf("client-%d", s.nextID)
	c := clientInfo{method: s.opts.AuthMethod, redirects: redirects}
	if c.method != "none" {
		c.secret = "secret-" + randomString()
	}
	s.clients[id] = c
	resp := map[string]any{
		"client_id":                  id,
		"redirect_uris":              redirects,
		"token_endpoint_auth_method": c.method,
		"grant_types":                raw["grant_types"],
		"response_types":             []string{"code"},
	}
	if c.secret != "" {
		resp["client_secret"] = c.secret
	}
	writeJSON(w, http.StatusCreated, resp)
}

func (s *Server) serveRevoke(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts.Revoke++
	tok := r.PostForm.Get("token")
	delete(s.access, tok)
	delete(s.refresh, tok)
	w.WriteHeader(http.StatusOK)
}
