package handlers

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// drawerUI serves one server's drawer and the commands given from it, as
// HTML fragments in the person's language.
type drawerUI struct {
	fleet *domain.Fleet
	prefs *preferences // the page's language negotiation, shared so fragments match their page
	log   *slog.Logger
	// policies adds a policy control to each tool; nil shows none.
	policies *domain.Policies
	scope    domain.Scope
	// gateway hears of policy changes and names each tool as AI clients
	// see it; nil when there is no gateway.
	gateway MCPGateway
	// logs shows the server's log messages; nil shows none.
	logs *serverLogsFeed
}

// livePart asks the drawer endpoint for the parts that follow the state
// (lists, actions, stderr) instead of the whole drawer.
const livePart = "live"

// show renders the whole drawer, or only its live parts when the drawer's
// script reloads them after a state change.
func (u *drawerUI) show(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	p, err := u.props(name)
	if err != nil {
		return err
	}
	if c.QueryParam("part") == livePart {
		return u.render(c, http.StatusOK, views.DrawerLive(p))
	}
	return u.render(c, http.StatusOK, views.Drawer(p))
}

// props reads everything the drawer shows about name from the fleet.
func (u *drawerUI) props(name string) (views.DrawerProps, error) {
	st, err := u.fleet.Status(name)
	if err != nil {
		return views.DrawerProps{}, err
	}
	return u.propsOf(st)
}

// propsOf builds the drawer around a snapshot a command already returned,
// so the answer shows the state that command left behind.
func (u *drawerUI) propsOf(st domain.Status) (views.DrawerProps, error) {
	caps, stderr, err := u.lists(st)
	if err != nil {
		return views.DrawerProps{}, err
	}
	p := views.NewDrawerProps(st, caps, stderr, drawerURLs(st.ServerName))
	if err := u.addPolicies(&p, st.ServerName, caps.Tools); err != nil {
		return views.DrawerProps{}, err
	}
	if u.gateway != nil {
		p.Gateway = views.NewGatewayNamesProps(st.ServerName, u.gateway.Catalogue())
	}
	if u.logs != nil {
		if p.Logs, err = u.logs.drawerProps(st.ServerName); err != nil {
			return views.DrawerProps{}, err
		}
	}
	return p, nil
}

// lists reads the server's cached capabilities and stderr. A server that
// gating or approval keeps away never ran, so it has neither; its drawer
// still opens, to say why it is blocked and what lifts the block.
func (u *drawerUI) lists(st domain.Status) (domain.Capabilities, []string, error) {
	if st.BlockedReason != domain.BlockedNone {
		return domain.Capabilities{}, nil, nil
	}
	caps, err := u.fleet.Capabilities(st.ServerName)
	if err != nil {
		return domain.Capabilities{}, nil, err
	}
	stderr, err := u.fleet.Stderr(st.ServerName)
	if err != nil {
		return domain.Capabilities{}, nil, err
	}
	return caps, stderr, nil
}

// drawerURLs fills the drawer's endpoints for one server.
func drawerURLs(name string) views.DrawerURLs {
	return views.DrawerURLs{
		Live:     ServerPath(PathUIDrawer, name) + "?part=" + livePart,
		Restart:  ServerPath(PathUIRestart, name),
		Disable:  ServerPath(PathUIDisable, name),
		Enable:   ServerPath(PathUIEnable, name),
		Settings: ServerPath(PathUISettings, name),
		Remove:   ServerPath(PathUIRemove, name),
		Approve:  approveURL(name),
		Reject:   rejectURL(name),

		AuthStart:    ServerPath(PathUIAuthStart, name),
		AuthSignOut:  ServerPath(PathUIAuthSignOut, name),
		AuthComplete: ServerPath(PathUIAuthComplete, name),
		AuthClient:   ServerPath(PathUIAuthClient, name),
		History:      historyURL(name),
	}
}

// render writes components as one buffered fragment, so a failing
// template never leaves half a drawer in the page.
func (u *drawerUI) render(c echo.Context, status int, comps ...templ.Component) error {
	ctx := u.prefs.resolve(c).context(c.Request().Context())
	var buf bytes.Buffer
	for _, comp := range comps {
		if err := comp.Render(ctx, &buf); err != nil {
			return fmt.Errorf("render drawer fragment: %w", err)
		}
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Language, Cookie")
	return c.HTMLBlob(status, buf.Bytes())
}
