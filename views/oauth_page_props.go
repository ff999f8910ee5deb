package views

import (
	"net/url"
	"strings"
)

// OAuthPageKind is which of the sign-in pages a browser tab shows.
type OAuthPageKind string

const (
	// OAuthContinue sends the new tab on to the authorization server.
	OAuthContinue OAuthPageKind = "continue"
	// OAuthStartFailed says why a sign-in could not begin.
	OAuthStartFailed OAuthPageKind = "start_failed"
	// OAuthSignedIn is the callback page after a sign-in that worked.
	OAuthSignedIn OAuthPageKind = "signed_in"
	// OAuthFailed is the callback page after a sign-in Switchboard started
	// that failed, with the authorization server's words.
	OAuthFailed OAuthPageKind = "failed"
	// OAuthUnknown is a callback whose state Switchboard never issued, used
	// or let expire: nothing of its query is shown.
	OAuthUnknown OAuthPageKind = "unknown"
)

// OAuthPageProps is a small page of its own in the sign-in flow: on the
// way to the authorization server, and back from it. It has no script, so
// it works under the strict CSP and without the dashboard's session.
type OAuthPageProps struct {
	Kind        OAuthPageKind
	Theme       string
	Stylesheets []string
	Server      string
	Title       Message
	Body        Message
	// Detail is the failure in the sign-in runner's words (redacted, and
	// escaped by templ); only for a state Switchboard issued.
	Detail string
	// ContinueURL is the authorization request, http or https only.
	ContinueURL  string
	ContinueHost string
	DashboardURL string
}

// NewOAuthContinueProps is the page that takes a new tab to the
// authorization server. An address that is not http(s) is refused rather
// than followed: it came from metadata a remote server controls.
func NewOAuthContinueProps(server, authorizationURL string) OAuthPageProps {
	u, err := url.Parse(authorizationURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		p := NewOAuthStartFailedProps(server, "sign_in_failed")
		p.Body = Message{ID: "OAuthBadAuthorizationURL", Data: map[string]any{"Name": server}}
		return p
	}
	return OAuthPageProps{
		Kind: OAuthContinue, Server: server,
		Title:       Message{ID: "OAuthContinueTitle", Data: map[string]any{"Name": server}},
		Body:        Message{ID: "OAuthContinueBody", Data: map[string]any{"Name": server, "Host": u.Host}},
		ContinueURL: u.String(), ContinueHost: u.Host,
	}
}

// startFailures words why a sign-in could not begin, by error code.
var startFailures = map[string]string{
	"needs_client_id": "OAuthStartNeedsClientID",
	"no_sign_in":      "OAuthStartNoSignIn",
	"not_found":       "OAuthStartNotFound",
}

// NewOAuthStartFailedProps is the page of a sign-in that could not begin,
// from the error code the handlers classified.
func NewOAuthStartFailedProps(server, code string) OAuthPageProps {
	id, ok := startFailures[code]
	if !ok {
		id = "OAuthStartFailed"
	}
	return OAuthPageProps{
		Kind: OAuthStartFailed, Server: server,
		Title: Message{ID: "OAuthStartFailedTitle", Data: map[string]any{"Name": server}},
		Body:  Message{ID: id, Data: map[string]any{"Name": server}},
	}
}

// NewOAuthSignedInProps is the callback page of a sign-in that worked.
func NewOAuthSignedInProps(server string) OAuthPageProps {
	return OAuthPageProps{
		Kind: OAuthSignedIn, Server: server,
		Title: Message{ID: "OAuthSignedInTitle", Data: map[string]any{"Name": server}},
		Body:  Message{ID: "OAuthSignedInBody"},
	}
}

// NewOAuthFailedProps is the callback page of a sign-in Switchboard
// started that failed; detail is why.
func NewOAuthFailedProps(server, detail string) OAuthPageProps {
	return OAuthPageProps{
		Kind: OAuthFailed, Server: server,
		Title:  Message{ID: "OAuthFailedTitle", Data: map[string]any{"Name": server}},
		Body:   Message{ID: "OAuthFailedBody", Data: map[string]any{"Name": server}},
		Detail: strings.TrimSpace(detail),
	}
}

// NewOAuthUnknownProps is the callback page of a state Switchboard does
// not know.
func NewOAuthUnknownProps() OAuthPageProps {
	return OAuthPageProps{
		Kind:  OAuthUnknown,
		Title: Message{ID: "OAuthUnknownTitle"},
		Body:  Message{ID: "OAuthUnknownBody"},
	}
}

// RefreshContent is the meta refresh that continues to the authorization
// server at once.
func (p OAuthPageProps) RefreshContent() string { return "0;url=" + p.ContinueURL }
