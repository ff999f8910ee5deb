package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// approve is the card's Approve button; the card's new state arrives on
// the page stream, like Stop's.
func (u *invocationUI) approve(c echo.Context) error {
	if _, err := u.svc.Approve(c.Request().Context(), u.scope, c.Param(idParam)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// deny is the card's Deny button.
func (u *invocationUI) deny(c echo.Context) error {
	if _, err := u.svc.Deny(c.Request().Context(), u.scope, c.Param(idParam)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
