package oauthtest

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
)

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
