package handlers

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/views"
)

// runToastMessages are what a person reads when a run form cannot start a
// call; other codes read as the drawer's toasts do.
var runToastMessages = map[string]string{
	"not_connected":  "RunToastNotConnected",
	"tool_not_found": "RunToastToolNotFound",
}

// withToast turns a run form handler's error into a localized toast in the
// page's alert region, like the drawer's commands, naming the server and
// the tool (both escaped by the template).
func (r *runForm) withToast(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := h(c)
		if err == nil {
			return nil
		}
		req := c.Request()
		ctx := req.Context()
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			return nil
		}
		p := classify(err)
		level := slog.LevelInfo
		if p.status >= http.StatusInternalServerError {
			level = slog.LevelError
		}
		r.ui.log.LogAttrs(ctx, level, "request failed", slog.String("method", req.Method),
			slog.String("path", req.URL.Path), slog.Int("status", p.status), slog.String("code", p.code),
			slog.Any("error", err))
		if c.Response().Committed {
			return nil
		}
		id, ok := runToastMessages[p.code]
		if !ok {
			if id, ok = toastMessages[p.code]; !ok {
				id = "RunToastFailed"
			}
		}
		name, _ := serverName(c)
		if name == "" {
			name = c.Param(nameParam)
		}
		hdr := c.Response().Header()
		hdr.Set("HX-Retarget", toastTarget)
		hdr.Set("HX-Reswap", "innerHTML")
		return r.ui.render(c, p.status, views.Toast(views.NewToastProps(p.code, id,
			map[string]any{"Name": name, "Tool": c.Param(toolParam)})))
	}
}
