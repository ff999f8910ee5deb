package handlers

import (
	"bytes"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/static"
	"github.com/switchboard-mcp/switchboard/views"
)

// contentSecurityPolicy allows only the binary's own scripts and styles:
// no inline script, no eval, no remote anything, so an escaped-but-hostile
// server name or result can never run inside an embedding desktop app.
// The guard adds frame-ancestors and sets it on every response.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"media-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'"

// langCookie holds a language the person chose over the browser's.
const langCookie = "lang"

// pageURLs returns the page's assets and endpoints. Scripts load in this
// order (all deferred): htmx, its SSE extension, then ours; the drawer's
// own script and stylesheet come with the first drawer or card.
func pageURLs() views.PageURLs {
	return views.PageURLs{
		Stylesheets: []string{AssetURL(static.DashboardCSS)},
		Scripts:     []string{AssetURL(static.HTMX), AssetURL(static.HTMXSSE), AssetURL(static.DashboardJS)},
		Workbench:   AssetURL(static.WorkbenchJS),
		LazyCSS:     AssetURL(static.WorkbenchCSS),
		Events:      PathPageEvents,
		Preferences: PathUIPreferences,
		Drawer:      drawerURL,
		Approve:     approveURL,
		Reject:      rejectURL,
	}
}

// drawerURL is where a server's chip button loads its drawer from.
func drawerURL(name string) string { return ServerPath(PathUIDrawer, name) }

// approveURL and rejectURL are where the approval dialog posts.
func approveURL(name string) string { return ServerPath(PathUIApprove, name) }
func rejectURL(name string) string  { return ServerPath(PathUIReject, name) }

type dashboardPage struct {
	fleet *domain.Fleet
	// config is the settings reloader, for the banner; nil in demo mode.
	config *domain.Reloader
	prefs  *preferences
	demo   views.DemoProps
	now    func() time.Time
}

// configState returns r's state, or nil for no reloader.
func configState(r *domain.Reloader) *domain.ConfigState {
	if r == nil {
		return nil
	}
	st := r.State()
	return &st
}

// show renders the dashboard from the hub's current list.
func (d *dashboardPage) show(c echo.Context) error {
	ch := d.prefs.resolve(c)
	props := views.NewPageProps(views.PageInput{
		URLs:   pageURLs(),
		Demo:   demoNotice(d.demo, d.config, false),
		List:   d.fleet.Hub().List(),
		Now:    d.now(),
		Theme:  ch.theme,
		Lang:   ch.lang,
		Config: configState(d.config),
		// The header summary's links narrow the list to one state group.
		ServerFilter: c.QueryParam("state"),
		Query:        c.QueryParams(),
	})
	props.Calls, props.EventsURL = callsSection(d.fleet, c.QueryParams())
	var buf bytes.Buffer
	if err := views.Page(props).Render(ch.context(c.Request().Context()), &buf); err != nil {
		return fmt.Errorf("render dashboard: %w", err)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	// A plain form posted from the page (Sign in, which opens a new tab)
	// carries "Origin: null" under no-referrer, which the guard refuses;
	// same-origin names this page to itself and to nobody else.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(http.StatusOK, buf.Bytes())
}
