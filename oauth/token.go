package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// Token is what a token endpoint granted.
type Token struct {
	Access  string
	Refresh string
	Type    string
	// Expiry is when Access expires, from the system clock at receipt;
	// zero when the server did not say.
	Expiry time.Time
	// ExpiresIn is the lifetime the server gave (zero: unknown), so a
	// caller with its own clock can compute the expiry itself.
	ExpiresIn time.Duration
	// Scopes are the granted scopes as returned; nil when the server did
	// not say (then they are the ones requested).
	Scopes []string
}

// TokenError is an OAuth error response from a token endpoint (RFC 6749
// §5.2), or an answer that is not one (Code empty, e.g. a 503 page).
type TokenError struct {
	Status      int
	Code        string
	Description string
}

func (e *TokenError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("oauth: token endpoint answered %d", e.Status)
	}
	if e.Description != "" {
		return fmt.Sprintf("oauth: %s: %s", e.Code, e.Description)
	}
	return "oauth: " + e.Code
}

// Permanent reports whether retrying cannot help: the grant or the client is
// no longer valid, so a person must sign in again. Anything else
// (network failures, 5xx, other codes) is worth retrying later.
func (e *TokenError) Permanent() bool {
	return e.Code == "invalid_grant" || e.Code == "invalid_client" || e.Code == "unauthorized_client"
}

// IsPermanent reports whether err is a *TokenError that is Permanent.
func IsPermanent(err error) bool {
	var te *TokenError
	return errors.As(err, &te) && te.Permanent()
}

// Exchange trades an authorization code for tokens, sending the PKCE
// verifier and the resource, authenticating as c.AuthMethod says.
func Exchange(ctx context.Context, hc *http.Client, md Metadata, c Client, redirectURI, code, verifier string) (Token, error) {
	if _, err := checkURL(md.TokenEndpoint); err != nil {
		return Token{}, err
	}
	cfg := oauth2.Config{
		ClientID:     c.ID,
		ClientSecret: c.Secret,
		Endpoint:     oauth2.Endpoint{TokenURL: md.TokenEndpoint, AuthStyle: authStyle(c)},
		RedirectURL:  redirectURI,
	}
	if c.authMethod() == AuthMethodNone {
		cfg.ClientSecret = ""
	}
	opts := []oauth2.AuthCodeOption{oauth2.VerifierOption(verifier)}
	if md.Resource != "" {
		opts = append(opts, oauth2.SetAuthURLParam("resource", md.Resource))
	}
	// A token endpoint that redirects elsewhere would have the code, the
	// verifier and maybe the secret posted on: only its own origin.
	ctx = context.WithValue(ctx, oauth2.HTTPClient, discoveryClient(hc))
	t, err := cfg.Exchange(ctx, code, opts...)
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			te := &TokenError{Code: re.ErrorCode, Description: re.ErrorDescription}
			if re.Response != nil {
				te.Status = re.Response.StatusCode
			}
			return Token{}, te
		}
		return Token{}, fmt.Errorf("oauth: exchanging the code at %s: %w", md.TokenEndpoint, err)
	}
	tok := Token{Access: t.AccessToken, Refresh: t.RefreshToken, Type: t.TokenType, Expiry: t.Expiry}
	if t.ExpiresIn > 0 {
		tok.ExpiresIn = time.Duration(t.ExpiresIn) * time.Second
	}
	if s, ok := t.Extra("scope").(string); ok {
		tok.Scopes = strings.Fields(s)
	}
	return tok, nil
}

func authStyle(c Client) oauth2.AuthStyle {
	if c.authMethod() == AuthMethodBasic {
		return oauth2.AuthStyleInHeader
	}
	return oauth2.AuthStyleInParams
}

// Refresh renews a token, sending the resource (RFC 8707), which
// x/oauth2's refresher cannot; it keeps the old refresh token when the
// server returns none. A refusal is a *TokenError (see Permanent); a
// failure to reach the server is any other error, and transient.
func Refresh(ctx context.Context, hc *http.Client, md Metadata, c Client, refresh string) (Token, error) {
	if refresh == "" {
		return Token{}, &TokenError{Code: "invalid_grant", Description: "no refresh token"}
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}}
	if md.Resource != "" {
		form.Set("resource", md.Resource)
	}
	resp, err := postForm(ctx, hc, md.TokenEndpoint, c, form)
	if err != nil {
		return Token{}, err
	}
	tok, err := parseTokenResponse(resp)
	if err != nil {
		return Token{}, err
	}
	if tok.Refresh == "" {
		tok.Refresh = refresh
	}
	return tok, nil
}

// Revoke asks the authorization server to forget tok (RFC 7009): the
// refresh token first (which ends the grant on most servers), then the
// access token. It is best effort: nil when the server offers no
// revocation endpoint; otherwise the first failure.
func Revoke(ctx context.Context, hc *http.Client, md Metadata, c Client, tok Token) error {
	if md.RevocationEndpoint == "" {
		return nil
	}
	var first error
	for _, t := range []struct{ value, hint string }{{tok.Refresh, "refresh_token"}, {tok.Access, "access_token"}} {
		if t.value == "" {
			continue
		}
		resp, err := postForm(ctx, hc, md.RevocationEndpoint, c, url.Values{"token": {t.value}, "token_type_hint": {t.hint}})
		if err == nil && resp.status != http.StatusOK {
			err = fmt.Errorf("oauth: revocation answered %d", resp.status)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// formResponse is a token-endpoint style answer, read and capped.
type formResponse struct {
	status int
	body   []byte
}

// postForm POSTs form to endpoint with c's client authentication.
func postForm(ctx context.Context, hc *http.Client, endpoint string, c Client, form url.Values) (formResponse, error) {
	if _, err := checkURL(endpoint); err != nil {
		return formResponse{}, err
	}
	switch c.authMethod() {
	case AuthMethodPost:
		form.Set("client_id", c.ID)
		form.Set("client_secret", c.Secret)
	case AuthMethodNone:
		form.Set("client_id", c.ID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return formResponse{}, fmt.Errorf("oauth: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if c.authMethod() == AuthMethodBasic {
		// RFC 6749 §2.3.1: both parts form-encoded before Basic.
		req.SetBasicAuth(url.QueryEscape(c.ID), url.QueryEscape(c.Secret))
	}
	// The form carries a refresh token or a secret: redirects only within
	// the endpoint's origin.
	resp, err := discoveryClient(hc).Do(req)
	if err != nil {
		return formResponse{}, fmt.Errorf("oauth: reaching %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	body, err := readCapped(resp.Body)
	if err != nil {
		return formResponse{}, fmt.Errorf("oauth: reading %s: %w", endpoint, err)
	}
	return formResponse{status: resp.StatusCode, body: body}, nil
}

// tokenJSON is RFC 6749 §5.1/§5.2; expires_in is read leniently since
// some servers send it as a string.
type tokenJSON struct {
	AccessToken      string          `json:"access_token"`
	TokenType        string          `json:"token_type"`
	RefreshToken     string          `json:"refresh_token"`
	ExpiresIn        json.RawMessage `json:"expires_in"`
	Scope            string          `json:"scope"`
	Error            string          `json:"error"`
	ErrorDescription string          `json:"error_description"`
}

func parseTokenResponse(r formResponse) (Token, error) {
	var tj tokenJSON
	jsonErr := json.Unmarshal(r.body, &tj)
	if r.status < 200 || r.status > 299 || tj.Error != "" {
		return Token{}, &TokenError{Status: r.status, Code: tj.Error, Description: tj.ErrorDescription}
	}
	if jsonErr != nil {
		return Token{}, fmt.Errorf("oauth: token response is not JSON: %w", jsonErr)
	}
	if tj.AccessToken == "" {
		return Token{}, errors.New("oauth: token response has no access_token")
	}
	tok := Token{Access: tj.AccessToken, Refresh: tj.RefreshToken, Type: tj.TokenType}
	if secs := parseExpiresIn(tj.ExpiresIn); secs > 0 {
		tok.ExpiresIn = time.Duration(secs) * time.Second
		tok.Expiry = time.Now().Add(tok.ExpiresIn)
	}
	if tj.Scope != "" {
		tok.Scopes = strings.Fields(tj.Scope)
	}
	return tok, nil
}

func parseExpiresIn(raw json.RawMessage) int64 {
	s := strings.Trim(string(raw), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// expiresFrom sets Expiry to ExpiresIn after now, so that the Manager's
// clock, not the wall clock Exchange and Refresh read, decides when a
// token is due for renewal. A token without expires_in keeps no expiry.
func (t *Token) expiresFrom(now time.Time) {
	t.Expiry = time.Time{}
	if t.ExpiresIn > 0 {
		t.Expiry = now.Add(t.ExpiresIn)
	}
}
