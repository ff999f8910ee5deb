package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// drawerSlot is the page element the drawer lives in.
const drawerSlot = "#drawer-slot"

func (u *drawerUI) restart(c echo.Context) error { return u.command(c, u.fleet.Restart) }
func (u *drawerUI) disable(c echo.Context) error { return u.command(c, u.fleet.Disable) }
func (u *drawerUI) enable(c echo.Context) error  { return u.command(c, u.fleet.Enable) }

// command runs one command and answers with the action row rebuilt from
// the snapshot it returned (Disable becomes Enable), plus the header and
// lists out of band. Later changes, such as the connection the command
// starts, arrive over the page's event stream. Its parse and call repeat
// serversAPI.command on purpose: the two answer the same command, one in
// HTML for the drawer and one in JSON for the API.
func (u *drawerUI) command(c echo.Context, run func(context.Context, string) (domain.Status, error)) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	st, err := run(c.Request().Context(), name)
	if err != nil {
		return err
	}
	p, err := u.propsOf(st)
	if err != nil {
		return err
	}
	return u.render(c, http.StatusOK, views.DrawerCommandResult(p))
}

// confirmRemove answers the Remove button with the confirmation dialog,
// rendered into the drawer's confirm slot.
func (u *drawerUI) confirmRemove(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	st, err := u.fleet.Status(name)
	if err != nil {
		return err
	}
	return u.render(c, http.StatusOK, views.ConfirmRemove(views.NewConfirmProps(name, st.Source, ServerPath(PathUIRemove, name))))
}

// remove removes the server and empties the drawer slot, which closes the
// drawer; the event stream takes the row and the chip away.
func (u *drawerUI) remove(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	if err := removeServer(c.Request().Context(), u.fleet, u.log, u.scope, name, "dashboard"); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("HX-Retarget", drawerSlot)
	h.Set("HX-Reswap", "innerHTML")
	h.Set("Cache-Control", "no-store")
	return c.HTMLBlob(http.StatusOK, nil)
}
