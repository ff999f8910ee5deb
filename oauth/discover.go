package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Metadata is what discovery learned about a protected MCP server and its
// authorization server, merged into what a sign-in needs.
type Metadata struct {
	// Resource is the protected resource identifier sent as RFC 8707
	// "resource" on authorization, token and refresh requests.
	Resource string
	// ResourceScopes are the protected resource's scopes_supported.
	ResourceScopes []string

	Issuer                string
	AuthorizationEndpoint string
	TokenEndpoint         string
	RegistrationEndpoint  string
	RevocationEndpoint    string
	ScopesSupported       []string
	TokenAuthMethods      []string
	CodeChallengeMethods  []string

	ClientIDMetadataDocumentSupported bool
	IssParameterSupported             bool

	// Legacy says no protected-resource metadata was found and the
	// 2025-03-26 fallbacks (the server's origin) were used.
	Legacy bool

	// DroppedScopes counts the scopes capScopes left out of ResourceScopes
	// and ScopesSupported, for the log; it is not stored.
	DroppedScopes int `json:"-"`
}

// maxBody caps every metadata and token response: they come from servers
// a remote party chose, so a huge body must not exhaust memory.
const maxBody = 1 << 20

// resourceDoc is the RFC 9728 protected resource metadata we use.
type resourceDoc struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverDoc is the RFC 8414 / OpenID authorization server metadata we use.
type serverDoc struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	RevocationEndpoint                string   `json:"revocation_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	IssParameterSupported             bool     `json:"authorization_response_iss_parameter_supported"`
}

// errNotFound marks a metadata URL that answered 4xx: discovery tries the
// next candidate. Other failures (5xx, bad JSON) also move on, but are
// remembered to explain a discovery that finds nothing.
var errNotFound = errors.New("not found")

// Discover finds the protected-resource metadata of serverURL (the
// challenge's resource_metadata, then the path-based, then the root
// well-known URL) and the metadata of its authorization server (RFC 8414
// and OpenID discovery with path insertion, then OpenID path appending).
// When the server publishes no protected-resource metadata it falls back
// to the 2025-03-26 rules: authorization server metadata at the server's
// origin, then the default /authorize, /token and /register endpoints.
func Discover(ctx context.Context, hc *http.Client, serverURL string, ch Challenge) (Metadata, error) {
	server, err := checkURL(serverURL)
	if err != nil {
		return Metadata{}, err
	}
	hc = discoveryClient(httpClientFor(hc, server, nil))
	prm, err := findResource(ctx, hc, server, ch.ResourceMetadata)
	if err != nil {
		return Metadata{}, err
	}
	if prm == nil {
		return legacyMetadata(ctx, hc, server)
	}
	if len(prm.AuthorizationServers) == 0 {
		return Metadata{}, fmt.Errorf("oauth: protected resource metadata names no authorization server")
	}
	issuer := prm.AuthorizationServers[0]
	doc, err := findServer(ctx, hc, issuer)
	if err != nil {
		return Metadata{}, err
	}
	if !sameIssuer(doc.Issuer, issuer) {
		return Metadata{}, fmt.Errorf("oauth: authorization server metadata names issuer %q, want %q", doc.Issuer, issuer)
	}
	md := fromServerDoc(doc)
	md.Resource = prm.Resource
	var dropped int
	md.ResourceScopes, dropped = capScopes(prm.ScopesSupported)
	md.DroppedScopes += dropped
	return md, checkServer(server, md)
}

// findResource fetches the protected resource metadata from the candidate
// URLs in the spec's order. It returns nil, nil when none exists; a
// document naming another resource is an error, never a reason to look on.
func findResource(ctx context.Context, hc *http.Client, server *url.URL, advertised string) (*resourceDoc, error) {
	var candidates []string
	if advertised != "" {
		if _, err := checkFor(server, advertised); err != nil {
			return nil, err
		}
		candidates = append(candidates, advertised)
	}
	origin := originOf(server)
	if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
		candidates = append(candidates, origin+"/.well-known/oauth-protected-resource"+p)
	}
	candidates = append(candidates, origin+"/.well-known/oauth-protected-resource")
	for _, c := range candidates {
		var doc resourceDoc
		if err := getJSON(ctx, hc, c, &doc); err != nil {
			// Missing and broken documents alike: look on, and in the
			// end apply the 2025-03-26 rules, which fail on their own
			// when the server has no authorization either.
			continue
		}
		if !resourceCovers(doc.Resource, server) {
			return nil, fmt.Errorf("%w: %q does not cover %q", ErrResourceMismatch, doc.Resource, server.String())
		}
		for _, as := range doc.AuthorizationServers {
			if _, err := checkFor(server, as); err != nil {
				return nil, fmt.Errorf("oauth: authorization server %q: %w", as, err)
			}
		}
		return &doc, nil
	}
	return nil, nil
}

// findServer fetches an issuer's metadata: RFC 8414 with path insertion,
// OpenID Connect discovery with path insertion, then with path appending.
func findServer(ctx context.Context, hc *http.Client, issuer string) (*serverDoc, error) {
	u, err := checkURL(issuer)
	if err != nil {
		return nil, err
	}
	origin := originOf(u)
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	candidates := []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
	}
	if p != "" {
		candidates = append(candidates, origin+p+"/.well-known/openid-configuration")
	}
	var lastErr error
	for _, c := range candidates {
		var doc serverDoc
		if err := getJSON(ctx, hc, c, &doc); err != nil {
			if !errors.Is(err, errNotFound) {
				lastErr = err
			}
			continue
		}
		return &doc, nil
	}
	if lastErr != nil {
		return nil, fmt.Errorf("%w for %s: %w", ErrNoMetadata, issuer, lastErr)
	}
	return nil, fmt.Errorf("%w for %s", ErrNoMetadata, issuer)
}

// legacyMetadata applies the 2025-03-26 rules: the MCP server's origin is
// the authorization server. Its metadata may name an issuer with a path
// on that origin; without metadata the default endpoints are used.
func legacyMetadata(ctx context.Context, hc *http.Client, server *url.URL) (Metadata, error) {
	origin := originOf(server)
	var doc serverDoc
	err := getJSON(ctx, hc, origin+"/.well-known/oauth-authorization-server", &doc)
	switch {
	case err == nil:
		iu, perr := url.Parse(doc.Issuer)
		if perr != nil || originOf(iu) != origin {
			return Metadata{}, fmt.Errorf("oauth: authorization server metadata at %s names issuer %q of another origin", origin, doc.Issuer)
		}
		md := fromServerDoc(&doc)
		md.Resource = server.String()
		md.Legacy = true
		return md, checkServer(server, md)
	case errors.Is(err, errNotFound):
		return Metadata{
			Resource:              server.String(),
			Issuer:                origin,
			AuthorizationEndpoint: origin + "/authorize",
			TokenEndpoint:         origin + "/token",
			RegistrationEndpoint:  origin + "/register",
			Legacy:                true,
		}, nil
	default:
		return Metadata{}, fmt.Errorf("%w: %w", ErrNoMetadata, err)
	}
}

func fromServerDoc(d *serverDoc) Metadata {
	scopes, dropped := capScopes(d.ScopesSupported)
	return Metadata{
		DroppedScopes:                     dropped,
		Issuer:                            d.Issuer,
		AuthorizationEndpoint:             d.AuthorizationEndpoint,
		TokenEndpoint:                     d.TokenEndpoint,
		RegistrationEndpoint:              d.RegistrationEndpoint,
		RevocationEndpoint:                d.RevocationEndpoint,
		ScopesSupported:                   scopes,
		TokenAuthMethods:                  d.TokenEndpointAuthMethodsSupported,
		CodeChallengeMethods:              d.CodeChallengeMethodsSupported,
		ClientIDMetadataDocumentSupported: d.ClientIDMetadataDocumentSupported,
		IssParameterSupported:             d.IssParameterSupported,
	}
}

// checkServer refuses metadata a sign-in cannot safely use: missing or
// insecure endpoints, or PKCE offered without S256.
func checkServer(server *url.URL, md Metadata) error {
	if md.AuthorizationEndpoint == "" || md.TokenEndpoint == "" {
		return fmt.Errorf("%w: %s lists no authorization or token endpoint", ErrNoMetadata, md.Issuer)
	}
	for _, e := range []string{md.AuthorizationEndpoint, md.TokenEndpoint, md.RegistrationEndpoint, md.RevocationEndpoint} {
		if e == "" {
			continue
		}
		if _, err := checkFor(server, e); err != nil {
			return fmt.Errorf("oauth: endpoint %q: %w", e, err)
		}
	}
	if len(md.CodeChallengeMethods) > 0 && !slices.Contains(md.CodeChallengeMethods, "S256") {
		return fmt.Errorf("%w (it offers %s)", ErrNoPKCE, strings.Join(md.CodeChallengeMethods, ", "))
	}
	return nil
}

// resourceCovers reports whether a protected resource identifier names the
// server: the same origin, and a path equal to the server's or one of its
// whole-segment prefixes (so a root document naming the origin covers
// every path on it, and /mcp covers neither /mcpx nor /other).
func resourceCovers(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || r.RawQuery != "" || r.Fragment != "" || originOf(r) != originOf(server) {
		return false
	}
	rp := strings.TrimSuffix(r.EscapedPath(), "/")
	sp := strings.TrimSuffix(server.EscapedPath(), "/")
	return rp == "" || rp == sp || strings.HasPrefix(sp, rp+"/")
}

// sameIssuer reports whether two issuer identifiers are the same,
// forgiving only a trailing slash.
func sameIssuer(a, b string) bool {
	return a != "" && strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// getJSON GETs u into v; a 4xx answer is errNotFound (wrapped).
func getJSON(ctx context.Context, hc *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("oauth: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("oauth: fetching %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return fmt.Errorf("oauth: %s answered %d: %w", u, resp.StatusCode, errNotFound)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("oauth: %s answered %d", u, resp.StatusCode)
	}
	body, err := readCapped(resp.Body)
	if err != nil {
		return fmt.Errorf("oauth: reading %s: %w", u, err)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("oauth: %s is not metadata JSON: %w", u, err)
	}
	return nil
}

// readCapped reads at most maxBody bytes and fails on more.
func readCapped(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxBody {
		return nil, fmt.Errorf("response larger than %d bytes", maxBody)
	}
	return b, nil
}
