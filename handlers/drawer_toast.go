package handlers

import (
	"context"
	"errors"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// toastTarget is the page's alert region, where a failed action's message
// goes whatever element asked.
const toastTarget = "#toast"

// toastMessages maps the error codes of classify to what a person reads.
// Domain error texts are English and stay in the log; the toast only
// carries the server name, which the template escapes.
var toastMessages = map[string]string{
	"not_found":         "ToastNotFound",
	"server_disabled":   "ToastServerDisabled",
	"invalid_settings":  "ToastInvalidSettings",
	"shutting_down":     "ToastShuttingDown",
	"settings_invalid":  "ToastSettingsFile",
	"bad_request":       "ToastBadRequest",
	"not_connected":     "ToastNotConnected",
	"timeout":           "ToastTimeout",
	"server_error":      "ToastServerError",
	"connection_failed": "ToastConnectionFailed",
}

// toolNotFoundToast is the key of a route's wording for an unknown tool,
// whose code (not_found) is an unknown server's too.
const toolNotFoundToast = "tool_not_found"

// blockedToasts word a command refused because gating or approval keeps
// the server away: each names what keeps it away and where to look.
var blockedToasts = map[domain.BlockedReason]string{
	domain.BlockedExcluded:   "ToastBlockedExcluded",
	domain.BlockedNotAllowed: "ToastBlockedNotAllowed",
	domain.BlockedPending:    "ToastBlockedPending",
	domain.BlockedRejected:   "ToastBlockedRejected",
}

// toastID picks the message for a failed action: the route's own wording
// for a code, else the drawer's, else the route's fallback, which names
// the action that failed.
func toastID(messages map[string]string, fallback, code string, err error) string {
	if errors.Is(err, domain.ErrToolNotFound) {
		if id, ok := messages[toolNotFoundToast]; ok {
			return id
		}
	}
	if id, ok := messages[code]; ok {
		return id
	}
	var be *domain.BlockedError
	if errors.As(err, &be) {
		if id, ok := blockedToasts[be.Reason]; ok {
			return id
		}
	}
	if id, ok := toastMessages[code]; ok {
		return id
	}
	return fallback
}

// withToast turns a drawer handler's error into a localized toast: the
// status says what failed, and HX-Retarget moves the fragment into the
// alert region instead of the element that asked. fallback is the
// message for errors nobody classified, such as a settings file that
// could not be written during a remove.
func (u *drawerUI) withToast(fallback string, h echo.HandlerFunc) echo.HandlerFunc {
	return u.toastOnError(nil, fallback, h)
}

// toastOnError is withToast with messages that take precedence over the
// drawer's for some error codes (the run form words them for a tool).
// The message data names the server and, on tool routes, the tool.
func (u *drawerUI) toastOnError(messages map[string]string, fallback string, h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := h(c)
		if err == nil {
			return nil
		}
		req := c.Request()
		ctx := req.Context()
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			return nil // the client went away; nobody is left to tell
		}
		p := classify(err)
		logFailure(ctx, u.log, req, p, err)
		if c.Response().Committed {
			return nil
		}
		id := toastID(messages, fallback, p.code, err)
		name, _ := serverName(c) // a name that does not decode is shown as sent
		if name == "" {
			name = c.Param(nameParam)
		}
		hdr := c.Response().Header()
		hdr.Set("HX-Retarget", toastTarget)
		hdr.Set("HX-Reswap", "innerHTML")
		return u.render(c, p.status, views.Toast(views.NewToastProps(p.code, id,
			map[string]any{"Name": name, "Tool": c.Param(toolParam)})))
	}
}
