package oauthtest

import "time"

// PRMLocation says where the fixture publishes its RFC 9728 protected
// resource metadata, to exercise each discovery path.
type PRMLocation int

const (
	// PRMAdvertised serves it at the path-based well-known URL and names
	// that URL in the 401 challenge (conformance metadata-default).
	PRMAdvertised PRMLocation = iota
	// PRMCustom serves it at a custom path known only from the challenge
	// (conformance metadata-var3).
	PRMCustom
	// PRMPath serves it at the path-based well-known URL without naming
	// it in the challenge (metadata-var1).
	PRMPath
	// PRMRoot serves it only at the root well-known URL, naming the
	// origin as the resource (metadata-var2).
	PRMRoot
	// PRMNone publishes none: a 2025-03-26 server (backcompat).
	PRMNone
)

// ASMetadata says where the authorization server metadata lives.
type ASMetadata int

const (
	// ASOAuth is RFC 8414 with path insertion.
	ASOAuth ASMetadata = iota
	// ASOpenIDInsert is OpenID discovery with path insertion.
	ASOpenIDInsert
	// ASOpenIDAppend is OpenID discovery appended to the issuer path.
	ASOpenIDAppend
	// ASNone publishes no metadata: clients fall back to /authorize,
	// /token and /register at the origin (2025-03-26 endpoint fallback).
	ASNone
)

// Options shape a fixture; the zero value is the common case: advertised
// protected resource metadata, RFC 8414 metadata at the origin, dynamic
// registration of public clients, one-hour tokens without rotation.
type Options struct {
	PRM PRMLocation
	AS  ASMetadata
	// IssuerPath is the issuer's path on the fixture's origin, e.g.
	// "/tenant1"; the endpoints live under it.
	IssuerPath string
	// MetadataAtRoot serves the RFC 8414 metadata at the origin even
	// though the issuer has a path (2025-03-26 metadata backcompat).
	MetadataAtRoot bool
	// Resource overrides the resource named in the protected resource
	// metadata (a mismatch test names another server here).
	Resource string

	// NoDCR turns dynamic client registration off.
	NoDCR bool
	// CIMD advertises client ID metadata document support and accepts an
	// https client_id without registration.
	CIMD bool
	// AuthMethod is the only token endpoint auth method supported
	// ("none" when empty, "client_secret_basic", "client_secret_post").
	AuthMethod string
	// PreRegistered are client_id → client_secret pairs known without
	// registration (secret "" for a public client).
	PreRegistered map[string]string
	// NoPKCEMethods omits code_challenge_methods_supported; PlainPKCEOnly
	// lists only "plain".
	NoPKCEMethods bool
	PlainPKCEOnly bool

	// ScopesSupported are listed by both metadata documents.
	ScopesSupported []string
	// ChallengeScopes go in the scope parameter of 401 challenges.
	ChallengeScopes []string
	// RequiredScopes must all be granted for any MCP request; a token
	// lacking one gets 403 insufficient_scope.
	RequiredScopes []string
	// PublicInitialize lets initialize and notifications through without
	// a token (the conformance scope-step-up server does this).
	PublicInitialize bool

	// TokenLifetime is the access token lifetime (default one hour).
	TokenLifetime time.Duration
	// NoRefreshToken issues no refresh tokens.
	NoRefreshToken bool
	// RotateRefresh issues a new refresh token on every refresh and
	// invalidates the old one.
	RotateRefresh bool
	// Revocation publishes an RFC 7009 revocation endpoint.
	Revocation bool
	// Iss sends iss in the authorization redirect and advertises it;
	// WrongIss sends this value instead (a mix-up test).
	Iss      bool
	WrongIss string
	// Now is the fixture's clock for token expiry (default time.Now).
	Now func() time.Time
}
