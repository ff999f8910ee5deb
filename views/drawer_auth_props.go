package views

import (
	"strconv"
	"strings"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerAuthProps is a remote server's sign-in section: where the sign-in
// stands, what it grants, and what a person can do about it.
type DrawerAuthProps struct {
	ID        string
	HeadingID string
	Name      string
	// Show is false for a server that does not use sign-in: the section
	// is then an empty placeholder a later swap can fill.
	Show     bool
	State    string
	StateMsg Message
	Detail   string // the authorization server's or Switchboard's words, escaped by templ
	Scopes   string // space-separated, as OAuth spells them
	// ScopesID labels Scopes: granted when signed in, asked for otherwise.
	ScopesID    string
	ExpiresMS   int64 // epoch ms; 0 when unknown
	ExpiresISO  string
	Issuer      string
	KeySourceID string // empty when unknown
	RedirectURI string
	SignInID    string // the Sign in button's words; empty offers no button
	CanSignOut  bool
	CanPaste    bool
	NeedsClient bool
	ClientIDID  string
	SecretID    string
	PasteID     string
	PasteHelpID string
	RedirectID  string
	StartURL    string
	SignOutURL  string
	CompleteURL string
	ClientURL   string
	Notice      string // message id of what a form just did; empty says nothing
}

// authStates names each sign-in state for people: the chip's badge, the
// dot's accessible name, the tooltip and the drawer share these words.
var authStates = map[domain.AuthState]string{
	domain.AuthSignedIn:       "AuthStateSignedIn",
	domain.AuthSignInNeeded:   "AuthStateSignInNeeded",
	domain.AuthSigningIn:      "AuthStateSigningIn",
	domain.AuthNeedsClientID:  "AuthStateNeedsClientID",
	domain.AuthRefreshFailing: "AuthStateRefreshFailing",
	domain.AuthFailed:         "AuthStateFailed",
}

var keySources = map[string]string{
	domain.KeySourceFile:     "AuthKeyFile",
	domain.KeySourceKeychain: "AuthKeyKeychain",
	domain.KeySourceDataDir:  "AuthKeyDataDir",
}

// authStateID is the message id of a sign-in state's words; the state
// itself names an unknown one, which the catalogue lacks only in a bug.
func authStateID(a *domain.AuthStatus) string {
	if a.MoreAccess && a.State != domain.AuthSigningIn {
		return "AuthStateMoreAccess"
	}
	if id, ok := authStates[a.State]; ok {
		return id
	}
	return "AuthStateSignInNeeded"
}

// NewDrawerAuthProps decides the sign-in section from one snapshot.
func NewDrawerAuthProps(s domain.Status, urls DrawerURLs) DrawerAuthProps {
	key := ServerKey(s.ServerName)
	p := DrawerAuthProps{
		ID: DrawerAuthID(s.ServerName), HeadingID: "drawer-auth-h-" + key, Name: s.ServerName,
		ClientIDID: "auth-client-id-" + key, SecretID: "auth-client-secret-" + key,
		PasteID: "auth-paste-" + key, PasteHelpID: "auth-paste-help-" + key, RedirectID: "auth-redirect-" + key,
		StartURL: urls.AuthStart, SignOutURL: urls.AuthSignOut, CompleteURL: urls.AuthComplete, ClientURL: urls.AuthClient,
	}
	a := s.Auth
	if a == nil || urls.AuthStart == "" {
		return p
	}
	p.Show = true
	p.State = string(a.State)
	p.StateMsg = Message{ID: authStateID(a)}
	p.Detail = a.Detail
	p.Scopes = strings.Join(a.Scopes, " ")
	p.ScopesID = "AuthScopesAsked"
	if a.State == domain.AuthSignedIn || a.State == domain.AuthRefreshFailing {
		p.ScopesID = "AuthScopesGranted"
		if !a.ExpiresAt.IsZero() {
			p.ExpiresMS = a.ExpiresAt.UnixMilli()
			p.ExpiresISO = a.ExpiresAt.UTC().Format(time.RFC3339)
		}
	}
	p.Issuer = a.Issuer
	p.KeySourceID = keySources[a.KeySource]
	p.RedirectURI = a.RedirectURI
	p.NeedsClient = a.State == domain.AuthNeedsClientID
	switch {
	case a.MoreAccess:
		p.SignInID = "AuthSignInMore"
	case a.State == domain.AuthSignedIn || a.State == domain.AuthRefreshFailing:
		p.SignInID = "AuthSignInAgain"
	case a.State == domain.AuthNeedsClientID:
		// Sign in waits for the client ID form below.
	default:
		p.SignInID = "AuthSignIn"
	}
	p.CanSignOut = a.State == domain.AuthSignedIn || a.State == domain.AuthRefreshFailing || a.MoreAccess
	p.CanPaste = a.State == domain.AuthSigningIn || a.State == domain.AuthSignInNeeded || a.MoreAccess
	return p
}

// DrawerAuthID is the id of a server's sign-in section, which its forms
// and the drawer's live reload replace.
func DrawerAuthID(name string) string { return "drawer-auth-" + ServerKey(name) }

// signInWaits reports whether s is held back only until a person signs in,
// which chips, tooltips and the drawer say in words rather than as a red
// error: the sign-in runner says so, or the connection was refused for it.
func signInWaits(s domain.Status) bool {
	if s.State == domain.StateConnected || s.State == domain.StateDisabled {
		return false
	}
	if s.Auth != nil && (s.Auth.Pending() || s.Auth.State == domain.AuthFailed) {
		return true
	}
	return s.ErrorCategory == domain.CategorySignIn
}

// signInStateID is the words for a server that waits for a sign-in.
func signInStateID(s domain.Status) string {
	if s.Auth == nil {
		return "AuthStateSignInNeeded"
	}
	return authStateID(s.Auth)
}

// authStamp is the part of the drawer's live stamp that follows the
// sign-in, so the section reloads when the state changes.
func authStamp(a *domain.AuthStatus) string {
	if a == nil {
		return ""
	}
	s := string(a.State)
	if a.MoreAccess {
		s += "+"
	}
	return s
}

// msAttr writes an epoch in milliseconds as an attribute value.
func msAttr(ms int64) string { return strconv.FormatInt(ms, 10) }
