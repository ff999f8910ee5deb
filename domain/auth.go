package domain

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// AuthState is where a remote server's OAuth sign-in stands. A server that
// never asked for OAuth has none (Status.Auth is nil).
type AuthState string

const (
	AuthSignedIn       AuthState = "signed_in"       // tokens held; requests carry them
	AuthSignInNeeded   AuthState = "sign_in_needed"  // the server refused us; a person must sign in
	AuthSigningIn      AuthState = "signing_in"      // a sign-in was started and waits for the browser
	AuthNeedsClientID  AuthState = "needs_client_id" // no way to register: a person must give a client ID
	AuthRefreshFailing AuthState = "refresh_failing" // renewing failed for a passing reason; tokens kept, retried
	AuthFailed         AuthState = "failed"          // the sign-in cannot work as configured (Detail says why)
)

// AuthStatus is what Switchboard knows about one server's sign-in. Nothing
// in it is a secret: tokens never leave the adapter that holds them.
type AuthStatus struct {
	State AuthState
	// Scopes are the scopes granted (signed in) or asked for (otherwise).
	Scopes []string
	// ExpiresAt is when the access token expires; zero when unknown.
	ExpiresAt time.Time
	// Issuer is the authorization server's issuer identifier.
	Issuer string
	// MoreAccess says the server refused the current grant as too narrow
	// (403 insufficient_scope): the next sign-in asks for Scopes.
	MoreAccess bool
	// Detail is why the state is failed or refresh_failing, in the words
	// of the authorization server or of Switchboard (redacted).
	Detail string
	// KeySource says where the key that seals the tokens at rest comes
	// from: KeySourceFile, KeySourceKeychain or KeySourceDataDir.
	KeySource string
	// RedirectURI is the address the authorization server sends the
	// browser back to, for a person registering a client by hand.
	RedirectURI string
}

// Where the key sealing stored tokens comes from.
const (
	KeySourceFile     = "key_file" // --key-file or SWITCHBOARD_KEY_FILE
	KeySourceKeychain = "keychain" // the operating system's keychain
	KeySourceDataDir  = "data_dir" // a 0600 file in the data directory
)

// Pending reports whether the server waits for a person to sign in (in any
// of the ways), as opposed to being signed in or failing to renew.
func (a *AuthStatus) Pending() bool {
	if a == nil {
		return false
	}
	switch a.State {
	case AuthSignInNeeded, AuthSigningIn, AuthNeedsClientID:
		return true
	}
	return false
}

// CategorySignIn is a connection refused until a person signs in (HTTP 401
// from an OAuth-protected server, or 403 insufficient_scope while
// connecting). It is not retried with backoff and does not count toward
// auto-disable: nothing changes until the person acts.
const CategorySignIn ErrorCategory = "sign_in"

// OAuthSettings is a server's "oauth" key: how Switchboard identifies
// itself to the server's authorization server. Every field is optional;
// ${VAR} references are expanded, and ClientSecret is redacted everywhere.
type OAuthSettings struct {
	ClientID          string   `json:"clientId,omitempty"`
	ClientSecret      string   `json:"clientSecret,omitempty"`
	Scopes            []string `json:"scopes,omitempty"`
	ClientMetadataURL string   `json:"clientMetadataUrl,omitempty"`
}

// AuthSource tells the supervisor a server's sign-in state when it
// publishes a status. The OAuth adapter implements it.
type AuthSource interface {
	// AuthStatus returns the server's sign-in state, or nil when the server
	// does not use OAuth (or has not been reached yet).
	AuthStatus(server string) *AuthStatus
}

// SignIns runs OAuth sign-ins for remote servers. The OAuth adapter
// implements it; handlers call it for the dashboard and the API.
type SignIns interface {
	AuthSource
	// Start begins a sign-in (discovery, registration, PKCE) and returns
	// the authorization URL the person's browser must open.
	Start(ctx context.Context, server string) (authorizationURL string, err error)
	// Complete finishes the sign-in the callback's query belongs to (code,
	// state, iss or error), from the redirect itself or an address a
	// person pasted. It returns the server's name, also on most errors,
	// so the page can say which sign-in failed.
	Complete(ctx context.Context, callback url.Values) (server string, err error)
	// CompleteFor is Complete for an address a person pasted for server:
	// a state that belongs to another server's sign-in is refused with
	// ErrSignInOtherServer and stays usable for that server.
	CompleteFor(ctx context.Context, server string, callback url.Values) error
	// SignOut forgets the server's tokens, revoking them where the
	// authorization server supports it.
	SignOut(ctx context.Context, server string) error
	// SetClient records a client ID (and secret) a person registered by
	// hand, for a server in state needs_client_id.
	SetClient(ctx context.Context, server, clientID, clientSecret string) error
}

// ErrorCodeNeedsMoreAccess is the ErrorCode of an invocation the server
// refused with 403 insufficient_scope: signing in with more access and
// retrying may succeed.
const ErrorCodeNeedsMoreAccess = "needs_more_access"

// NeedsMoreAccessError is a call the server refused because the grant
// lacks scopes (403 insufficient_scope). Adapters return it from CallTool.
type NeedsMoreAccessError struct {
	Scopes []string // what the server's challenge asked for
}

func (e *NeedsMoreAccessError) Error() string {
	if len(e.Scopes) == 0 {
		return "the server needs more access than this sign-in grants"
	}
	return fmt.Sprintf("the server needs more access than this sign-in grants (scopes: %s)", strings.Join(e.Scopes, " "))
}

// MaxStepUps bounds how often one server and tool may send a person to
// sign in with more access before the call is reported as failed.
const MaxStepUps = 2
