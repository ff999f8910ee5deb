package handlers

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/static"
	"github.com/switchboard-mcp/switchboard/views"
)

// signInsUI serves the dashboard's side of sign-ins: the drawer's forms,
// the page a new tab shows on its way to the authorization server, and
// the callback page the authorization server sends the browser back to.
type signInsUI struct {
	signIns domain.SignIns
	ui      *drawerUI
}

// start answers the drawer's Sign in form, which opens in a new tab. The
// tab gets a page that continues to the authorization server at once: a
// redirect would break the dashboard's CSP form-action 'self', which
// browsers apply to every hop of a form's navigation.
func (s *signInsUI) start(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	u, err := s.signIns.Start(c.Request().Context(), name)
	if err != nil {
		p := classify(signInFailure(err))
		logFailure(c.Request().Context(), s.ui.log, c.Request(), p, err)
		page := views.NewOAuthStartFailedProps(name, p.code)
		if p.code == "sign_in_failed" {
			page.Detail = p.message // discovery's or registration's words: what to fix
		}
		return s.page(c, p.status, page)
	}
	p := views.NewOAuthContinueProps(name, u)
	status := http.StatusOK
	if p.Kind != views.OAuthContinue {
		status = http.StatusBadGateway // an authorization endpoint that is not http(s) is not followed
	}
	return s.page(c, status, p)
}

// callback finishes the sign-in the authorization server sent the browser
// back with. Only a state Switchboard issued gets the server's words on
// the page; any other is said to be unknown and nothing of it is echoed.
func (s *signInsUI) callback(c echo.Context) error {
	server, err := s.signIns.Complete(c.Request().Context(), c.QueryParams())
	if err == nil {
		return s.page(c, http.StatusOK, views.NewOAuthSignedInProps(server))
	}
	p := classify(signInFailure(err))
	logFailure(c.Request().Context(), s.ui.log, c.Request(), p, err)
	if errors.Is(err, domain.ErrSignInUnknown) || server == "" {
		return s.page(c, http.StatusBadRequest, views.NewOAuthUnknownProps())
	}
	return s.page(c, http.StatusBadRequest, views.NewOAuthFailedProps(server, err.Error()))
}

func (s *signInsUI) signOut(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	if err := s.signIns.SignOut(c.Request().Context(), name); err != nil {
		return signInFailure(err)
	}
	return s.section(c, name, "AuthNoticeSignedOut")
}

// complete finishes a sign-in from an address the person pasted.
func (s *signInsUI) complete(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	q, err := callbackQuery(c.FormValue("callbackUrl"))
	if err != nil {
		return err
	}
	if err := s.signIns.CompleteFor(c.Request().Context(), name, q); err != nil {
		return signInFailure(err)
	}
	return s.section(c, name, "AuthNoticeSignedIn")
}

func (s *signInsUI) setClient(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	body := OAuthClientDTO{ClientID: c.FormValue("clientId"), ClientSecret: c.FormValue("clientSecret")}
	if err := setClient(c, s.signIns, name, body); err != nil {
		return err
	}
	return s.section(c, name, "AuthNoticeClientSaved")
}

// section answers a drawer form with the sign-in section rebuilt from the
// sign-in runner's own state, which may be newer than the last snapshot
// the fleet published.
func (s *signInsUI) section(c echo.Context, name, notice string) error {
	st, err := s.ui.fleet.Status(name)
	if err != nil {
		return err
	}
	st.Auth = s.signIns.AuthStatus(name)
	p := views.NewDrawerAuthProps(st, drawerURLs(name))
	p.Notice = notice
	return s.ui.render(c, http.StatusOK, views.DrawerAuth(p, false))
}

// page renders one of the sign-in pages a browser tab shows on its own.
func (s *signInsUI) page(c echo.Context, status int, p views.OAuthPageProps) error {
	ch := s.ui.prefs.resolve(c)
	p.Theme = ch.theme
	p.Stylesheets = []string{AssetURL(static.OAuthCSS)}
	p.DashboardURL = PathDashboard
	var buf bytes.Buffer
	if err := views.OAuthPage(p).Render(ch.context(c.Request().Context()), &buf); err != nil {
		return fmt.Errorf("render sign-in page: %w", err)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(status, buf.Bytes())
}
