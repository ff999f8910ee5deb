package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// clientTokensAPI creates, lists and revokes the tokens AI clients use on
// the MCP endpoints. It takes the owner's token, like the rest of /api/v1:
// a client token cannot mint or revoke tokens.
type clientTokensAPI struct {
	tokens *domain.ClientTokens
	// gateway closes what a revoked token holds open; nil when none.
	gateway MCPGateway
}

// ClientTokenDTO is one client token as listed: never its secret, which
// nobody can see after it was created.
type ClientTokenDTO struct {
	Name       string `json:"name"`
	CreatedAt  int64  `json:"createdAt"`  // epoch milliseconds
	LastUsedAt *int64 `json:"lastUsedAt"` // epoch milliseconds; null: never used
}

// ClientTokenListDTO is the body of GET /api/v1/client-tokens.
type ClientTokenListDTO struct {
	ClientTokens []ClientTokenDTO `json:"clientTokens"`
}

// NewClientTokenDTO is the body of POST /api/v1/client-tokens and its
// answer: the answer carries the secret, shown this once.
type NewClientTokenDTO struct {
	Name  string `json:"name"`
	Token string `json:"token,omitempty"`
}

// ClientTokenJSON renders t for the API.
func ClientTokenJSON(t domain.ClientToken) ClientTokenDTO {
	d := ClientTokenDTO{Name: t.Name, CreatedAt: t.CreatedAt.UnixMilli()}
	if !t.LastUsedAt.IsZero() {
		ms := t.LastUsedAt.UnixMilli()
		d.LastUsedAt = &ms
	}
	return d
}

func (a *clientTokensAPI) list(c echo.Context) error {
	out := ClientTokenListDTO{ClientTokens: []ClientTokenDTO{}}
	for _, t := range a.tokens.List() {
		out.ClientTokens = append(out.ClientTokens, ClientTokenJSON(t))
	}
	return c.JSON(http.StatusOK, out)
}

// create answers 201 with the new token's name and secret.
func (a *clientTokensAPI) create(c echo.Context) error {
	name, err := clientTokenBody(c)
	if err != nil {
		return err
	}
	_, secret, err := a.tokens.Create(c.Request().Context(), name)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, NewClientTokenDTO{Name: name, Token: secret})
}

// revoke answers 204; from then on the token opens nothing.
func (a *clientTokensAPI) revoke(c echo.Context) error {
	if err := a.tokens.Revoke(c.Request().Context(), c.Param(nameParam)); err != nil {
		return err
	}
	if a.gateway != nil {
		a.gateway.CloseToken(c.Param(nameParam))
	}
	return c.NoContent(http.StatusNoContent)
}

// clientTokenBody reads {"name": "…"}.
func clientTokenBody(c echo.Context) (string, error) {
	shape := &apiError{http.StatusBadRequest, "bad_request", `the body must be {"name": "…"}, the client token's name`}
	var body NewClientTokenDTO
	empty, err := readSmallJSON(c, &body, 1<<12, shape)
	if err != nil {
		return "", err
	}
	if empty {
		return "", shape
	}
	return body.Name, nil
}
