package oauth

import "errors"

// The package's sentinel errors, all declared here so that one look shows
// every failure a caller may test with errors.Is. Callers wrap them with
// what they were doing; the manager turns them into the domain's sign-in
// errors or into the words of a failed sign-in.
var (
	// ErrInsecureURL is a metadata or endpoint URL that is not https (plain
	// http is allowed to loopback only, where nobody listens on the way),
	// or a loopback URL named by a server that is not on this machine.
	ErrInsecureURL = errors.New("oauth: refusing a non-https URL for a non-loopback host")
	// ErrLocalAddress is the refusal of a connection, on behalf of a
	// remote server, to an address on this machine or its link: a server's
	// metadata must not make Switchboard call its own API, other local
	// services or a cloud metadata service.
	ErrLocalAddress = errors.New("oauth: refusing to connect a remote server's sign-in to a local address")

	// ErrResourceMismatch is protected resource metadata that names a
	// resource other than the server asked about, so its authorization
	// servers cannot be trusted for it.
	ErrResourceMismatch = errors.New("oauth: protected resource metadata names a different resource")
	// ErrNoMetadata is an authorization server without usable metadata:
	// none of its well-known addresses answered with any, or what it
	// answered lacks an endpoint sign-in needs.
	ErrNoMetadata = errors.New("oauth: no authorization server metadata found")
	// ErrNoPKCE is an authorization server that does not offer PKCE with
	// S256, without which the code could be used by whoever intercepts it.
	ErrNoPKCE = errors.New("oauth: authorization server does not support PKCE S256")
	// ErrNoRegistration means the authorization server offers no dynamic
	// client registration endpoint.
	ErrNoRegistration = errors.New("oauth: authorization server offers no client registration")

	// ErrIssuerMismatch is an authorization response whose iss (RFC 9207)
	// names another authorization server than the one asked: a mix-up.
	ErrIssuerMismatch = errors.New("oauth: the authorization response came from another issuer")
	// ErrIssuerMissing is an authorization response without iss from a
	// server whose metadata promised it (RFC 9207).
	ErrIssuerMissing = errors.New("oauth: the authorization response lacks the issuer it promised")

	// ErrUnsealable is a sealed record that this key cannot open: the key
	// changed (keychain reset, key file replaced) or the bytes were
	// altered. The manager treats such a record as absent: the server is
	// signed out.
	ErrUnsealable = errors.New("stored sign-in cannot be decrypted with the current key")
)
