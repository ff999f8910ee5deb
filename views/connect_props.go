package views

import (
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ConnectPageProps is the Connect page: the client tokens and, for each
// AI client, the snippet that points it at Switchboard.
type ConnectPageProps struct {
	Theme       string
	Stylesheets []string
	Scripts     []string
	Dashboard   string // the way back
	Body        ConnectBodyProps
}

// ConnectBodyProps is the part of the page a token form replaces, so a
// new token appears in the snippets at once.
type ConnectBodyProps struct {
	Tokens  ConnectTokensProps
	Clients []ConnectClientProps
	// Sessions are the AI clients connected now; the handler fills them
	// from the gateway.
	Sessions ConnectSessionsProps
}

// ConnectTokensProps is the list of client tokens and the form that makes
// one.
type ConnectTokensProps struct {
	Enabled   bool   // false when this instance keeps no client tokens (demo)
	CreateURL string // where the create form posts
	Rows      []ConnectTokenRow
	// NewName and NewSecret are the token just created: the one time its
	// secret is shown.
	NewName, NewSecret string
	// Error is the message id of a refused form, empty when none.
	Error string
	// Name is what the form's field held when it was refused.
	Name string
}

// ConnectTokenRow is one client token in the list.
type ConnectTokenRow struct {
	Name      string
	Created   time.Time
	LastUsed  time.Time // zero: never used
	RevokeURL string
}

// ConnectClientProps is one AI client's section.
type ConnectClientProps struct {
	ID      string
	Name    string
	Files   []domain.ClientConfigFile
	Snippet string
	Stdio   bool
	Command string // `switchboard connect <id> --write`
	// AddCommand is the client's own command that adds Switchboard;
	// empty when it has none.
	AddCommand string
	// File edits the client's config file; the handler fills it, and an
	// empty ClientID leaves it out (no file access configured).
	File ConnectFileProps
}

// ConnectTokenPlaceholder stands in for the secret in the snippets until
// a token is created on the page.
const ConnectTokenPlaceholder = "<client-token>"

// NewConnectBodyProps builds the page's body: the snippets carry the new
// secret when one was just created, else the placeholder.
func NewConnectBodyProps(tokens ConnectTokensProps, target domain.ConnectTarget) ConnectBodyProps {
	target.Token = ConnectTokenPlaceholder
	if tokens.NewSecret != "" {
		target.Token = tokens.NewSecret
	}
	var clients []ConnectClientProps
	for _, c := range domain.ConnectClients() {
		clients = append(clients, ConnectClientProps{
			ID: c.ID, Name: c.Name, Files: c.Files, Snippet: c.Snippet(target), Stdio: c.Stdio,
			Command: "switchboard connect " + c.ID + " --write", AddCommand: c.AddCommand(target),
		})
	}
	return ConnectBodyProps{Tokens: tokens, Clients: clients}
}

// connectOSKey is the message id naming an OS.
func connectOSKey(os string) string {
	switch os {
	case "macos":
		return "ConnectOSMac"
	case "windows":
		return "ConnectOSWindows"
	}
	return "ConnectOSLinux"
}
