package handlers

import "github.com/labstack/echo/v4"

// runToastMessages are what a person reads when a run form cannot start a
// call; other codes read as the drawer's toasts do.
var runToastMessages = map[string]string{
	"not_connected":   "RunToastNotConnected",
	"server_disabled": "RunToastServerDisabled",
	// An unknown tool, which classify answers not_found like an unknown
	// server (as the JSON API does); toastID tells the two apart.
	toolNotFoundToast: "RunToastToolNotFound",
	// A tool whose policy is deny: the toast says which setting to change.
	"denied_by_policy": "ToastDeniedByPolicy",
}

// withToast turns a run form handler's error into a localized toast in the
// page's alert region, like the drawer's commands, naming the server and
// the tool (both escaped by the template).
func (r *runForm) withToast(h echo.HandlerFunc) echo.HandlerFunc {
	return r.ui.toastOnError(runToastMessages, "RunToastFailed", h)
}
