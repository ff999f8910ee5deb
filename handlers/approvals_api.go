package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// approvalsAPI answers whether a project server may run.
type approvalsAPI struct {
	approvals *domain.Approvals // nil in demo mode
}

func (a *approvalsAPI) approve(c echo.Context) error { return a.decide(c, domain.Approved) }
func (a *approvalsAPI) reject(c echo.Context) error  { return a.decide(c, domain.Rejected) }

// decide records the decision for the server's current config and answers
// with its status: connecting when approved, blocked when rejected.
func (a *approvalsAPI) decide(c echo.Context, d domain.ApprovalDecision) error {
	if a.approvals == nil {
		return &apiError{http.StatusConflict, "demo_mode", "the built-in demo has no project servers to approve"}
	}
	name, err := serverName(c)
	if err != nil {
		return err
	}
	st, err := a.approvals.Decide(c.Request().Context(), name, d)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, StatusJSON(st))
}
