package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// approve lets a call held for approval run and answers with it as it
// stands then: running, or, when its client had stopped waiting, cancelled
// with errorCode approval_expired (the client's identical retry within 10
// minutes then runs without asking). A call not awaiting approval is 409
// not_awaiting_approval.
func (a *invocationsAPI) approve(c echo.Context) error {
	inv, err := a.svc.Approve(c.Request().Context(), a.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, InvocationJSON(inv))
}

// deny ends a call held for approval as denied; it is never sent.
func (a *invocationsAPI) deny(c echo.Context) error {
	inv, err := a.svc.Deny(c.Request().Context(), a.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, InvocationJSON(inv))
}
