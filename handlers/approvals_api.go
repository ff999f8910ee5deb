package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// approvalsAPI answers whether a project server may run.
type approvalsAPI struct {
	approvals *domain.Approvals // nil in demo mode
}

// DecisionDTO is the body of approve and reject: the fingerprint of the
// pending config the client was shown (status.approval.fingerprint). It is
// required, so nobody approves a config they did not look at.
type DecisionDTO struct {
	Fingerprint string `json:"fingerprint"`
}

// ConfigChangedDTO answers a decision about a config that changed since
// it was shown: nothing was decided, and Approval is the config to look at
// now, whose fingerprint a new decision must carry.
type ConfigChangedDTO struct {
	Error    ConfigChangedDetailDTO `json:"error"`
	Approval *ApprovalDTO           `json:"approval"`
}

// ConfigChangedDetailDTO is the usual error detail (code
// "config_changed") plus the current config's fingerprint.
type ConfigChangedDetailDTO struct {
	Code        string `json:"code"`
	Message     string `json:"message"`
	Fingerprint string `json:"fingerprint"`
}

func (a *approvalsAPI) approve(c echo.Context) error { return a.decide(c, domain.Approved) }
func (a *approvalsAPI) reject(c echo.Context) error  { return a.decide(c, domain.Rejected) }

// decide records the decision for the config the client was shown and
// answers with the server's status: connecting when approved, blocked when
// rejected; 409 config_changed when the config is no longer the one shown.
func (a *approvalsAPI) decide(c echo.Context, d domain.ApprovalDecision) error {
	if a.approvals == nil {
		return &apiError{http.StatusConflict, "demo_mode", "the built-in demo has no project servers to approve"}
	}
	name, err := serverName(c)
	if err != nil {
		return err
	}
	shown, err := decisionBody(c)
	if err != nil {
		return err
	}
	st, err := a.approvals.Decide(c.Request().Context(), name, d, shown)
	var changed *domain.ConfigChangedError
	switch {
	case errors.As(err, &changed):
		return c.JSON(http.StatusConflict, ConfigChangedDTO{
			Error: ConfigChangedDetailDTO{Code: "config_changed", Fingerprint: changed.Current.Fingerprint,
				Message: "the config of " + name + " changed since it was shown; review approval and send its fingerprint"},
			Approval: ApprovalJSON(changed.Current),
		})
	case errors.Is(err, domain.ErrFingerprintRequired):
		return fingerprintRequired()
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, StatusJSON(st))
}

// decisionBody reads the fingerprint a decision carries; no body at all
// reads as no fingerprint.
func decisionBody(c echo.Context) (string, error) {
	shape := &apiError{http.StatusBadRequest, "bad_request", `the body must be {"fingerprint": "…"}, the fingerprint of the config shown`}
	var body DecisionDTO
	if _, err := readSmallJSON(c, &body, 1<<12, shape); err != nil {
		return "", err
	}
	return body.Fingerprint, nil // an empty one is refused by Decide, after it knows the server
}

func fingerprintRequired() error {
	return &apiError{http.StatusBadRequest, "fingerprint_required",
		`send {"fingerprint": "…"}: the approval.fingerprint of the server's status, the config you reviewed`}
}
