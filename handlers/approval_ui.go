package handlers

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// approvalUI answers the approval dialog's buttons. A decision answers 204:
// the page stream then swaps the dialog (the next pending server, or
// nothing) and the server's chip. A decision about a config that changed
// since the dialog showed it answers 409 with the dialog again, showing
// the new config and saying the file changed.
type approvalUI struct {
	approvals *domain.Approvals // nil (demo mode): nothing ever awaits a decision
	ui        *drawerUI         // renders in the person's language
}

// fingerprintField is the dialog form's hidden input holding the
// fingerprint of the config it shows.
const fingerprintField = "fingerprint"

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
	_, err = a.approvals.Decide(c.Request().Context(), name, d, c.FormValue(fingerprintField))
	var changed *domain.ConfigChangedError
	switch {
	case errors.As(err, &changed):
		return a.changed(c, changed)
	case errors.Is(err, domain.ErrNothingToApprove):
		return nothingToApprove(err)
	case errors.Is(err, domain.ErrFingerprintRequired):
		return &apiError{status: http.StatusBadRequest, code: "bad_request", message: err.Error()}
	case err != nil:
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// changed answers 409 with the dialog for the config as it is now. The
// error's request is the newest, even if the hub has not published it yet.
func (a *approvalUI) changed(c echo.Context, e *domain.ConfigChangedError) error {
	list := a.approvals.Fleet.Hub().List()
	for i := range list {
		if list[i].ServerName == e.Server {
			list[i].Approval = e.Current
		}
	}
	p := views.NewApprovalProps(list, approveURL, rejectURL, false)
	p.Changed = p.Show && p.Name == e.Server
	h := c.Response().Header()
	h.Set("HX-Retarget", "#"+views.ApprovalSlotID)
	h.Set("HX-Reswap", "outerHTML")
	return a.ui.render(c, http.StatusConflict, views.ApprovalDialog(p))
}

// nothingToApprove is a conflict, not a failure of ours: the question was
// already answered (in another tab, or by an edit of the file).
func nothingToApprove(err error) error {
	return &apiError{status: http.StatusConflict, code: "nothing_to_approve", message: err.Error()}
}
