package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// AuthorizationDTO answers a sign-in start: the address the person's
// browser must open.
type AuthorizationDTO struct {
	AuthorizationURL string `json:"authorizationUrl"`
}

// CallbackDTO is an address a person pasted after signing in in a browser
// on another machine, where the redirect to 127.0.0.1 found no Switchboard.
type CallbackDTO struct {
	CallbackURL string `json:"callbackUrl"`
}

// CompletedDTO names the server a pasted address signed in to.
type CompletedDTO struct {
	ServerName string `json:"serverName"`
}

// OAuthClientDTO is a client registered by hand with a server's authorization
// server, for a server that needs a client ID.
type OAuthClientDTO struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret,omitempty"`
}

// signInsAPI is the JSON API of sign-ins to remote servers.
type signInsAPI struct {
	signIns domain.SignIns
}

// registerSignIns adds the sign-in routes when a sign-in runner exists;
// without one no server uses sign-in and the routes are not served.
func registerSignIns(e *echo.Echo, opts Options, drawer *drawerUI) {
	if opts.SignIns == nil {
		return
	}
	api := &signInsAPI{signIns: opts.SignIns}
	e.POST(PathServerAuthStart, api.start)
	e.POST(PathServerAuthSignOut, api.signOut)
	e.POST(PathServerAuthComplete, api.complete)
	e.POST(PathServerAuthClient, api.setClient)
	ui := &signInsUI{signIns: opts.SignIns, ui: drawer}
	e.GET(PathOAuthCallback, ui.callback)
	e.POST(PathUIAuthStart, ui.start)
	e.POST(PathUIAuthSignOut, drawer.toastOnError(signInToasts, "ToastSignInFailed", ui.signOut))
	e.POST(PathUIAuthComplete, drawer.toastOnError(signInToasts, "ToastSignInFailed", ui.complete))
	e.POST(PathUIAuthClient, drawer.toastOnError(signInToasts, "ToastSignInFailed", ui.setClient))
}

// start runs discovery and registration in the daemon and answers the
// authorization URL; nothing of the flow happens in the caller.
func (a *signInsAPI) start(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	u, err := a.signIns.Start(c.Request().Context(), name)
	if err != nil {
		return signInFailure(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, AuthorizationDTO{AuthorizationURL: u})
}

func (a *signInsAPI) signOut(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	if err := a.signIns.SignOut(c.Request().Context(), name); err != nil {
		return signInFailure(err)
	}
	return c.NoContent(http.StatusNoContent)
}

// complete finishes a sign-in from the address the browser was sent to.
func (a *signInsAPI) complete(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	shape := &apiError{http.StatusBadRequest, "bad_request", `the body must be {"callbackUrl": "…"}, the whole address the browser was sent back to`}
	var body CallbackDTO
	if _, err := readSmallJSON(c, &body, 1<<14, shape); err != nil {
		return err
	}
	q, err := callbackQuery(body.CallbackURL)
	if err != nil {
		return err
	}
	if err := a.signIns.CompleteFor(c.Request().Context(), name, q); err != nil {
		return signInFailure(err)
	}
	return c.JSON(http.StatusOK, CompletedDTO{ServerName: name})
}

func (a *signInsAPI) setClient(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	shape := &apiError{http.StatusBadRequest, "bad_request", `the body must be {"clientId": "…", "clientSecret": "…"} (the secret is optional)`}
	var body OAuthClientDTO
	if _, err := readSmallJSON(c, &body, 1<<14, shape); err != nil {
		return err
	}
	if err := setClient(c, a.signIns, name, body); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// setClient checks and records a client registered by hand; the API and
// the drawer's form share it.
func setClient(c echo.Context, s domain.SignIns, name string, body OAuthClientDTO) error {
	id := strings.TrimSpace(body.ClientID)
	if id == "" {
		return &apiError{http.StatusBadRequest, "client_id_required", "give the client ID registered with the authorization server"}
	}
	if err := s.SetClient(c.Request().Context(), name, id, strings.TrimSpace(body.ClientSecret)); err != nil {
		return signInFailure(err)
	}
	return nil
}

// callbackQuery takes the sign-in answer out of a pasted address: the whole
// URL, or only its query. An address without code, error or state is not
// one an authorization server sent.
func callbackQuery(raw string) (url.Values, error) {
	raw = strings.TrimSpace(raw)
	bad := &apiError{http.StatusBadRequest, "not_a_callback",
		"that is not the address the browser was sent back to: it holds no code or error and no state"}
	if raw == "" {
		return nil, bad
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, bad
	}
	q := u.Query()
	if u.RawQuery == "" && !strings.Contains(raw, "://") {
		// Only the query, with or without its "?".
		if q, err = url.ParseQuery(strings.TrimPrefix(raw, "?")); err != nil {
			return nil, bad
		}
	}
	if q.Get("state") == "" || (q.Get("code") == "" && q.Get("error") == "") {
		return nil, bad
	}
	return q, nil
}

// signInFailure turns a sign-in error into its response. The sign-in
// runner's words say what the authorization server answered (redacted,
// never a token), so a failure nobody classified keeps them.
func signInFailure(err error) error {
	switch {
	case errors.Is(err, domain.ErrNotFound), errors.Is(err, domain.ErrClosed), errors.Is(err, domain.ErrInvalidRequest),
		errors.Is(err, domain.ErrNoSignIn), errors.Is(err, domain.ErrSignInOtherServer),
		errors.Is(err, domain.ErrSignInUnknown), errors.Is(err, domain.ErrNeedsClientID):
		// The error table words these.
		return err
	}
	var ae *apiError
	if errors.As(err, &ae) {
		return err
	}
	return &apiError{http.StatusBadGateway, "sign_in_failed", err.Error()}
}

// signInToasts word the sign-in failures in the drawer's toast.
var signInToasts = map[string]string{
	"no_sign_in":           "ToastNoSignIn",
	"sign_in_unknown":      "ToastSignInUnknown",
	"sign_in_other_server": "ToastSignInOtherServer",
	"needs_client_id":      "ToastNeedsClientID",
	"not_a_callback":       "ToastNotACallback",
	"client_id_required":   "ToastClientIDRequired",
}
