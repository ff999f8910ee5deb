package handlers

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// approvalUI answers the approval dialog's buttons. A decision answers 204:
// the page stream then swaps the dialog (the next pending server, or
// nothing) and the server's chip.
type approvalUI struct {
	approvals *domain.Approvals // nil (demo mode): nothing ever awaits a decision
}

func (a *approvalUI) approve(c echo.Context) error { return a.decide(c, domain.Approved) }
func (a *approvalUI) reject(c echo.Context) error  { return a.decide(c, domain.Rejected) }

func (a *approvalUI) decide(c echo.Context, d domain.ApprovalDecision) error {
	name, err := serverName(c)
	if err != nil {
		return err
	}
	if a.approvals == nil {
		return nothingToApprove(fmt.Errorf("%s %s: %w", d, name, domain.ErrNothingToApprove))
	}
	if _, err := a.approvals.Decide(c.Request().Context(), name, d); err != nil {
		if errors.Is(err, domain.ErrNothingToApprove) {
			return nothingToApprove(err)
		}
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// nothingToApprove is a conflict, not a failure of ours: the question was
// already answered (in another tab, or by an edit of the file).
func nothingToApprove(err error) error {
	return &apiError{status: http.StatusConflict, code: "nothing_to_approve", message: err.Error()}
}
