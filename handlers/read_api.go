package handlers

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// readAPI reads from a server on a client's behalf and answers at once
// with the server's result object: resources/read, prompts/get and
// completion/complete. Unlike tool calls nothing is recorded, since none
// of them changes anything.
type readAPI struct {
	fleet *domain.Fleet
}

// PromptGetPath fills PathPromptGet for one server and prompt, both
// escaped.
func PromptGetPath(server, prompt string) string {
	return pathWith(ServerPath(PathPromptGet, server), promptParam, prompt)
}

// ResourceReadPath is PathResourceRead for one server with uri as its
// query.
func ResourceReadPath(server, uri string) string {
	return ServerPath(PathResourceRead, server) + "?" + url.Values{"uri": {uri}}.Encode()
}

// readResource answers GET ?uri= with the resources/read result.
func (a *readAPI) readResource(c echo.Context) error {
	server, err := serverName(c)
	if err != nil {
		return err
	}
	uri := c.QueryParam("uri")
	if uri == "" {
		return &apiError{http.StatusBadRequest, "bad_request", "the uri query parameter is required"}
	}
	raw, err := a.fleet.ReadResource(c.Request().Context(), server, uri)
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, raw)
}

// getPrompt answers with the prompts/get result; the body
// {"arguments": {"name": "value"}} is optional.
func (a *readAPI) getPrompt(c echo.Context) error {
	server, err := serverName(c)
	if err != nil {
		return err
	}
	prompt, err := pathName(c, promptParam, "prompt")
	if err != nil {
		return err
	}
	args, err := promptArguments(c)
	if err != nil {
		return err
	}
	raw, err := a.fleet.GetPrompt(c.Request().Context(), server, prompt, args)
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, raw)
}

// complete answers with the completion/complete result.
func (a *readAPI) complete(c echo.Context) error {
	server, err := serverName(c)
	if err != nil {
		return err
	}
	req, err := completeRequest(c)
	if err != nil {
		return err
	}
	raw, err := a.fleet.Complete(c.Request().Context(), server, req)
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, raw)
}
