package oauth

import (
	"crypto/rand"
	"errors"
	"fmt"
	"slices"

	"golang.org/x/oauth2"
)

// Request is an authorization request: the URL to send the browser to and
// the secrets the callback needs to finish it.
type Request struct {
	URL      string
	State    string
	Verifier string
}

// Scopes decides what to ask for: the configured scopes, else the
// challenge's, else the protected resource's scopes_supported, else none;
// offline_access is added only when the authorization server advertises
// it (asking for it elsewhere gets invalid_scope from strict servers).
// At most maxScopes are asked for.
func Scopes(md Metadata, ch Challenge, configured []string) []string {
	var base []string
	switch {
	case len(configured) > 0:
		base = configured
	case len(ch.Scopes) > 0:
		base = ch.Scopes
	default:
		base = md.ResourceScopes
	}
	out := make([]string, 0, len(base)+1)
	for _, s := range base {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if slices.Contains(md.ScopesSupported, "offline_access") && !slices.Contains(out, "offline_access") {
		out = append(out, "offline_access")
	}
	out, _ = capScopes(out) // the sources were capped; together they may not be
	if len(out) == 0 {
		return nil
	}
	return out
}

// AuthorizationRequest builds the authorization URL with PKCE S256, a fresh
// state and the RFC 8707 resource. An empty scopes list sends no scope.
func AuthorizationRequest(md Metadata, c Client, redirectURI string, scopes []string) (Request, error) {
	if md.AuthorizationEndpoint == "" {
		return Request{}, fmt.Errorf("%w: no authorization endpoint", ErrNoMetadata)
	}
	if c.ID == "" {
		return Request{}, errors.New("oauth: no client ID")
	}
	if _, err := checkURL(md.AuthorizationEndpoint); err != nil {
		return Request{}, err
	}
	cfg := oauth2.Config{
		ClientID:    c.ID,
		Endpoint:    oauth2.Endpoint{AuthURL: md.AuthorizationEndpoint},
		RedirectURL: redirectURI,
		Scopes:      scopes,
	}
	r := Request{State: rand.Text(), Verifier: oauth2.GenerateVerifier()}
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(r.Verifier)}
	if md.Resource != "" {
		opts = append(opts, oauth2.SetAuthURLParam("resource", md.Resource))
	}
	r.URL = cfg.AuthCodeURL(r.State, opts...)
	return r, nil
}

// CheckIssuer verifies the RFC 9207 iss parameter of an authorization
// response: it must equal md.Issuer when sent (a mix-up attack sends the
// browser back from another server), and must be sent when the server
// says it sends it. On an error the response's error text must not be
// shown: it came from a server we cannot vouch for.
func CheckIssuer(md Metadata, iss string) error {
	if iss == "" {
		if md.IssParameterSupported {
			return ErrIssuerMissing
		}
		return nil
	}
	if iss != md.Issuer {
		return fmt.Errorf("%w: got %q, want %q", ErrIssuerMismatch, iss, md.Issuer)
	}
	return nil
}
