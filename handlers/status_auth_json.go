package handlers

import (
	"slices"

	"github.com/switchboard-mcp/switchboard/domain"
)

// AuthDTO is a server's OAuth sign-in as the API shows it. Scopes is
// always an array; expiresAt is epoch milliseconds or null when unknown,
// and the texts are null when there is nothing to say.
type AuthDTO struct {
	// State is signed_in, sign_in_needed, signing_in, needs_client_id,
	// refresh_failing or failed.
	State string `json:"state"`
	// Scopes are the scopes granted (signed in) or to ask for (otherwise).
	Scopes    []string `json:"scopes"`
	ExpiresAt *int64   `json:"expiresAt"`
	Issuer    *string  `json:"issuer"`
	// MoreAccess says the server found the grant too narrow: the next
	// sign-in asks for Scopes.
	MoreAccess bool `json:"moreAccess"`
	// Detail says why the state is failed or refresh_failing.
	Detail *string `json:"detail"`
	// KeySource is where the key sealing the tokens at rest comes from:
	// key_file, keychain or data_dir.
	KeySource *string `json:"keySource"`
	// RedirectURI is the address to register for a client ID by hand.
	RedirectURI *string `json:"redirectUri"`
}

// AuthJSON converts a sign-in for the API, copying its scopes so the DTO
// never aliases a snapshot the hub still holds.
func AuthJSON(a domain.AuthStatus) *AuthDTO {
	scopes := slices.Clone(a.Scopes)
	if scopes == nil {
		scopes = []string{}
	}
	return &AuthDTO{
		State:       string(a.State),
		Scopes:      scopes,
		ExpiresAt:   epochMillis(a.ExpiresAt),
		Issuer:      optString(a.Issuer),
		MoreAccess:  a.MoreAccess,
		Detail:      optString(a.Detail),
		KeySource:   optString(a.KeySource),
		RedirectURI: optString(a.RedirectURI),
	}
}
