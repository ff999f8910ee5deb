package oauth

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// How Switchboard identifies itself to an authorization server.
const (
	ClientSettings         = "settings"          // clientId from the server's settings
	ClientMetadataDocument = "metadata_document" // a client ID metadata document URL
	ClientRegistered       = "registered"        // dynamic client registration (RFC 7591)
	ClientManual           = "manual"            // typed in by a person in the drawer
)

// Token endpoint authentication methods (RFC 7591 §2).
const (
	AuthMethodNone  = "none"
	AuthMethodBasic = "client_secret_basic"
	AuthMethodPost  = "client_secret_post"
)

// Client is a client identity at one authorization server.
type Client struct {
	ID     string
	Secret string
	// AuthMethod is how the token endpoint is authenticated (AuthMethod*);
	// empty means basic when there is a secret, else none.
	AuthMethod string
	// Kind says where the identity came from (Client* constants).
	Kind string
}

// authMethod resolves an empty AuthMethod the way RFC 6749 §2.3.1 expects:
// a client with a secret uses HTTP Basic, one without sends its ID only.
func (c Client) authMethod() string {
	switch {
	case c.AuthMethod != "":
		return c.AuthMethod
	case c.Secret != "":
		return AuthMethodBasic
	}
	return AuthMethodNone
}

// Register registers a native client with redirectURI at md's registration
// endpoint (RFC 7591), asking for the authorization_code and refresh_token
// grants. It asks for a public client ("none") when the server allows it,
// since a secret stored on a person's machine protects little; otherwise
// for the first secret method the server lists.
func Register(ctx context.Context, hc *http.Client, md Metadata, redirectURI, clientName string) (Client, error) {
	if md.RegistrationEndpoint == "" {
		return Client{}, ErrNoRegistration
	}
	if _, err := checkURL(md.RegistrationEndpoint); err != nil {
		return Client{}, err
	}
	method := registrationMethod(md.TokenAuthMethods)
	resp, err := oauthex.RegisterClient(ctx, md.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
		ClientName:              clientName,
		ApplicationType:         "native",
		RedirectURIs:            []string{redirectURI},
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: method,
	}, discoveryClient(hc))
	if err != nil {
		return Client{}, fmt.Errorf("oauth: registering with %s: %w", md.Issuer, err)
	}
	c := Client{ID: resp.ClientID, Secret: resp.ClientSecret, AuthMethod: resp.TokenEndpointAuthMethod, Kind: ClientRegistered}
	if c.AuthMethod == "" {
		c.AuthMethod = method
	}
	if c.AuthMethod != AuthMethodNone && c.Secret == "" {
		c.AuthMethod = AuthMethodNone
	}
	return c, nil
}

// registrationMethod picks the token endpoint auth method to register:
// none when listed (or nothing is listed: RFC 8414's default is basic, but
// registering a public client is what the MCP spec expects), else basic,
// else post.
func registrationMethod(supported []string) string {
	switch {
	case len(supported) == 0, slices.Contains(supported, AuthMethodNone):
		return AuthMethodNone
	case slices.Contains(supported, AuthMethodBasic):
		return AuthMethodBasic
	case slices.Contains(supported, AuthMethodPost):
		return AuthMethodPost
	}
	return AuthMethodNone
}

// MetadataDocumentClient is the client identity for a client ID metadata
// document URL, usable when md says the server supports such documents.
func MetadataDocumentClient(md Metadata, documentURL string) (Client, bool) {
	if !md.ClientIDMetadataDocumentSupported || documentURL == "" {
		return Client{}, false
	}
	return Client{ID: documentURL, AuthMethod: AuthMethodNone, Kind: ClientMetadataDocument}, true
}

// SettingsClient is the identity configured in a server's settings, with
// the auth method chosen from what the server lists.
func SettingsClient(md Metadata, id, secret string) Client {
	c := Client{ID: id, Secret: secret, Kind: ClientSettings}
	c.AuthMethod = secretMethod(md.TokenAuthMethods, secret)
	return c
}

// secretMethod chooses how a client with a given secret authenticates:
// none without one; with one, basic unless the server lists only post.
func secretMethod(supported []string, secret string) string {
	if secret == "" {
		return AuthMethodNone
	}
	if !slices.Contains(supported, AuthMethodBasic) && slices.Contains(supported, AuthMethodPost) {
		return AuthMethodPost
	}
	return AuthMethodBasic
}
