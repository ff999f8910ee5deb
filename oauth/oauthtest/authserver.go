package oauthtest

import (
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
