package handlers

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// contentSecurityPolicy allows only the binary's own scripts and styles:
// no inline script, no eval, no remote anything, so an escaped-but-hostile
// server name or result can never run inside an embedding desktop app.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"media-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'"

// langCookie holds a language the person chose over the browser's.
const langCookie = "lang"

type dashboardPage struct {
	fleet   *domain.Fleet
	catalog *locales.Catalog
	demo    views.DemoProps
}

// show renders the dashboard from the hub's current list.
func (d *dashboardPage) show(c echo.Context) error {
	ctx := locales.WithLocalizer(c.Request().Context(), d.localizer(c))
	props := views.NewPageProps(PathStylesheet, d.demo, d.fleet.Hub().List())
	var buf bytes.Buffer
	if err := views.Page(props).Render(ctx, &buf); err != nil {
		return fmt.Errorf("render dashboard: %w", err)
	}
	h := c.Response().Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(http.StatusOK, buf.Bytes())
}

// localizer prefers the language cookie, then Accept-Language.
func (d *dashboardPage) localizer(c echo.Context) *locales.Localizer {
	var prefs []string
	if ck, err := c.Cookie(langCookie); err == nil {
		prefs = append(prefs, ck.Value)
	}
	prefs = append(prefs, c.Request().Header.Get("Accept-Language"))
	return d.catalog.Localizer(prefs...)
}
