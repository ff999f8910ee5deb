package handlers

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/static"
	"github.com/switchboard-mcp/switchboard/views"
)

// connectPage shows how to point each AI client at Switchboard and lets a
// person create and revoke client tokens.
type connectPage struct {
	issuer *domain.ClientTokens // nil: no client tokens (the demo)
	prefs  *preferences
	log    *slog.Logger
	// executable is switchboard's own path, for the stdio entry of
	// clients that accept only commands.
	executable string
	// gateway lists the connected clients and closes what a revoked
	// token holds open; nil when there is none.
	gateway MCPGateway
	// files reads and edits the clients' config files; nil shows
	// snippets only.
	files ClientConfigFiles
}

// registerConnect adds the Connect page, its forms, and the client token API.
func registerConnect(e *echo.Echo, opts Options, prefs *preferences) {
	exe, err := os.Executable()
	if err != nil {
		exe = "switchboard"
	}
	issuer := opts.ClientTokens
	page := &connectPage{issuer: issuer, prefs: prefs, log: opts.Log, executable: exe, gateway: opts.Gateway, files: opts.ClientConfigs}
	e.GET(PathConnect, page.show)
	if page.files != nil {
		e.GET(PathUIConnectFile, page.filePanel)
		e.POST(PathUIConnectReview, page.fileReview)
		e.POST(PathUIConnectApply, page.fileApply)
		e.POST(PathUIConnectUndo, page.fileUndo)
	}
	if issuer == nil {
		return
	}
	api := &clientTokensAPI{tokens: issuer, gateway: opts.Gateway}
	e.GET(PathClientTokens, api.list)
	e.POST(PathClientTokens, api.create)
	e.DELETE(PathClientToken, api.revoke)
	e.POST(PathUIClientTokens, page.create)
	e.POST(PathUIClientTokenDel, page.revoke)
}

func (p *connectPage) show(c echo.Context) error {
	ch := p.prefs.resolve(c)
	props := views.ConnectPageProps{
		Theme:       ch.theme,
		Stylesheets: []string{AssetURL(static.ConnectCSS)},
		Scripts:     []string{AssetURL(static.HTMX), AssetURL(static.ConnectJS)},
		Dashboard:   PathDashboard,
		Body:        p.body(c, views.ConnectTokensProps{}),
	}
	return p.render(c, "connect page", views.ConnectPage(props))
}

// create makes a token from the form and answers the body with its secret
// shown once; a refused name comes back in the form with the reason.
func (p *connectPage) create(c echo.Context) error {
	name := c.FormValue("name")
	_, secret, err := p.issuer.Create(c.Request().Context(), name)
	list := views.ConnectTokensProps{NewName: name, NewSecret: secret}
	if err != nil {
		msg := connectErrorID(err)
		if msg == connectFailedID {
			p.log.Error("create a client token", "error", err)
		}
		list = views.ConnectTokensProps{Error: msg, Name: name}
	}
	return p.render(c, "connect tokens", views.ConnectBody(p.body(c, list)))
}

// revoke ends a token's access and answers the body without it.
func (p *connectPage) revoke(c echo.Context) error {
	var list views.ConnectTokensProps
	if err := p.issuer.Revoke(c.Request().Context(), c.Param(nameParam)); err != nil {
		msg := connectErrorID(err)
		if msg == connectFailedID {
			p.log.Error("revoke a client token", "error", err)
		}
		list.Error = msg
	} else if p.gateway != nil {
		p.gateway.CloseToken(c.Param(nameParam))
	}
	return p.render(c, "connect tokens", views.ConnectBody(p.body(c, list)))
}

// body fills tokens with the list and the URLs, and builds the snippets
// for the address this request reached.
func (p *connectPage) body(c echo.Context, tokens views.ConnectTokensProps) views.ConnectBodyProps {
	body := views.NewConnectBodyProps(p.tokenList(tokens), p.target(c))
	if p.gateway != nil {
		body.Sessions = views.NewConnectSessionsProps(p.gateway.Clients())
	}
	if p.files != nil {
		for i := range body.Clients {
			if client, ok := domain.FindConnectClient(body.Clients[i].ID); ok {
				body.Clients[i].File, _ = p.fileProps(c.Request().Context(), client)
			}
		}
	}
	return body
}

// tokenList fills tokens with the list of client tokens and the URLs.
func (p *connectPage) tokenList(tokens views.ConnectTokensProps) views.ConnectTokensProps {
	if issuer := p.issuer; issuer != nil {
		tokens.Enabled = true
		tokens.CreateURL = PathUIClientTokens
		for _, t := range issuer.List() {
			tokens.Rows = append(tokens.Rows, views.ConnectTokenRow{
				Name: t.Name, Created: t.CreatedAt, LastUsed: t.LastUsedAt,
				RevokeURL: ServerPath(PathUIClientTokenDel, t.Name),
			})
		}
	}
	return tokens
}

// target is what the clients' entries point at: the address this request
// reached, without a token.
func (p *connectPage) target(c echo.Context) domain.ConnectTarget {
	req := c.Request()
	scheme := "http"
	if req.TLS != nil {
		scheme = "https"
	}
	return domain.ConnectTarget{URL: scheme + "://" + req.Host + mcpRoot, Executable: p.executable}
}

func (p *connectPage) render(c echo.Context, what string, comp templ.Component) error {
	ch := p.prefs.resolve(c)
	var buf bytes.Buffer
	if err := comp.Render(ch.context(c.Request().Context()), &buf); err != nil {
		return fmt.Errorf("render %s: %w", what, err)
	}
	h := c.Response().Header()
	// The answer to a create holds the only copy of the secret.
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(http.StatusOK, buf.Bytes())
}

// connectErrorID is the message a refused token form shows.
func connectErrorID(err error) string {
	switch {
	case errors.Is(err, domain.ErrClientTokenName):
		return "ConnectTokenErrName"
	case errors.Is(err, domain.ErrClientTokenExists):
		return "ConnectTokenErrTaken"
	case errors.Is(err, domain.ErrClientTokenNotFound):
		return "ConnectTokenErrGone"
	}
	return connectFailedID
}

// connectFailedID is the message of a failure that is not the person's.
const connectFailedID = "ConnectTokenErrFailed"

// clientVerifier is ct as the authenticator's verifier: nil stays a nil
// interface, which accepts no client token.
func clientVerifier(ct *domain.ClientTokens) clientTokenVerifier {
	if ct == nil {
		return nil
	}
	return ct
}
