package handlers

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/static"
	"github.com/switchboard-mcp/switchboard/views"
)

// signInPage exchanges the access token for the dashboard's session
// cookie, for a person who opened the dashboard without the printed link.
type signInPage struct {
	auth    *authenticator
	prefs   *preferences
	command string
}

// newPreferences is the one preferences resolver of an instance, shared by
// the dashboard and the sign-in page so both speak the person's language.
func newPreferences(opts Options) *preferences {
	return &preferences{store: opts.Preferences, catalog: opts.Catalog, log: opts.Log}
}

// show renders the sign-in form; ?next= is where to go afterwards.
func (s *signInPage) show(c echo.Context) error {
	return s.render(c, http.StatusOK, localPath(c.QueryParam("next")), false)
}

// showInPlace renders the form instead of a page that needs the token,
// so that signing in comes back to that very page. A wrong ?token= says so.
func (s *signInPage) showInPlace(c echo.Context) error {
	req := c.Request()
	q := req.URL.Query()
	wrong := q.Has(tokenParam)
	q.Del(tokenParam)
	u := *req.URL
	u.RawQuery = q.Encode()
	return s.render(c, http.StatusUnauthorized, localPath(u.RequestURI()), wrong)
}

// submit checks the posted token: right, the cookie is set and the person
// goes where they were headed; wrong, the form comes back saying so.
func (s *signInPage) submit(c echo.Context) error {
	next := localPath(c.FormValue("next"))
	if !tokenMatches([]byte(strings.TrimSpace(c.FormValue(tokenParam))), s.auth.token) {
		return s.render(c, http.StatusUnauthorized, next, true)
	}
	c.SetCookie(s.auth.sessionCookie(c.Request()))
	return c.Redirect(http.StatusSeeOther, next)
}

func (s *signInPage) render(c echo.Context, status int, next string, wrong bool) error {
	ch := s.prefs.resolve(c)
	props := views.SignInProps{
		Theme:       ch.theme,
		Stylesheets: []string{AssetURL(static.SignInCSS)},
		Action:      PathSignIn,
		Next:        next,
		WrongToken:  wrong,
		Command:     s.commandFor(c.Request()),
	}
	var buf bytes.Buffer
	if err := views.SignIn(props).Render(ch.context(c.Request().Context()), &buf); err != nil {
		return fmt.Errorf("render sign-in page: %w", err)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	// With no-referrer a browser posts the form with "Origin: null", which
	// the guard must refuse; same-origin names this page and nobody else.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(status, buf.Bytes())
}

// localPath keeps a return address on this server: a path that starts
// with one slash. Anything else ("//evil.example", "https://…", "/\\x")
// could send the person to another site right after signing in.
func localPath(p string) string {
	// Browsers drop tabs and newlines from a URL and read "\" as "/", so
	// "/\t/evil.example" is "//evil.example" to them: refuse any control
	// character and any backslash outright.
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsRune(p, '\\') ||
		strings.IndexFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 ||
		p == PathSignIn || strings.HasPrefix(p, PathSignIn+"?") {
		return PathDashboard
	}
	return p
}

// commandFor is the command shown to req: the exact one (it may name the
// data directory or the token file) only to this machine, since anyone
// who reaches a --allow-remote instance sees this page.
func (s *signInPage) commandFor(req *http.Request) string {
	host, _, err := net.SplitHostPort(req.RemoteAddr)
	if ip := net.ParseIP(host); err == nil && ip != nil && ip.IsLoopback() {
		return s.command
	}
	return "switchboard token"
}
