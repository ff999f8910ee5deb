package handlers

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// serversAPI serves the server list, one server's detail and the commands
// a person gives a server.
type serversAPI struct {
	fleet *domain.Fleet
	// policies adds each tool's policy to a server's detail; nil leaves
	// them out.
	policies *domain.Policies
	scope    domain.Scope
	log      *slog.Logger // hears of removals
}

func (a *serversAPI) list(c echo.Context) error {
	return c.JSON(http.StatusOK, StatusListJSON(a.fleet.Hub().List()))
}

func (a *serversAPI) get(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	st, err := a.fleet.Status(name)
	if err != nil {
		return err
	}
	// A blocked server has no connection yet: its status says why, and its
	// lists and stderr are empty rather than an error.
	caps, err := a.fleet.Capabilities(name)
	if err != nil && !errors.Is(err, domain.ErrBlocked) {
		return err
	}
	stderr, err := a.fleet.Stderr(name)
	if err != nil && !errors.Is(err, domain.ErrBlocked) {
		return err
	}
	if stderr == nil {
		stderr = []string{}
	}
	capsJSON := CapabilitiesJSON(caps)
	if a.policies != nil {
		sp, err := a.policies.Server(c.Request().Context(), a.scope, name)
		if err != nil {
			return err
		}
		capsJSON = withPolicies(capsJSON, caps.Tools, sp)
	}
	return c.JSON(http.StatusOK, ServerDetailDTO{
		StatusDTO:    StatusJSON(st),
		Capabilities: capsJSON,
		Stderr:       stderr,
	})
}

func (a *serversAPI) restart(c echo.Context) error { return a.command(c, a.fleet.Restart) }
func (a *serversAPI) disable(c echo.Context) error { return a.command(c, a.fleet.Disable) }
func (a *serversAPI) enable(c echo.Context) error  { return a.command(c, a.fleet.Enable) }

// command answers 202: the supervisor accepted the command, and the
// connection it may start completes later, reported on the event stream.
func (a *serversAPI) command(c echo.Context, run func(context.Context, string) (domain.Status, error)) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	st, err := run(c.Request().Context(), name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, StatusJSON(st))
}

func (a *serversAPI) remove(c echo.Context) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	if err := removeServer(c.Request().Context(), a.fleet, a.log, a.scope, name, "api"); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// serverName reads the name from the path. Echo hands over the raw segment
// when the path holds escapes Go would not produce itself (such as %2F for
// a "/" inside a name), and the decoded one otherwise.
func serverName(c echo.Context) (string, error) {
	name := c.Param(nameParam)
	if c.Request().URL.RawPath == "" {
		return name, nil
	}
	decoded, err := url.PathUnescape(name)
	if err != nil {
		return "", &apiError{http.StatusBadRequest, "bad_request", "the server name in the path is not validly escaped"}
	}
	return decoded, nil
}
