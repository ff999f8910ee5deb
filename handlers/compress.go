package handlers

import (
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// gzipMinLength leaves tiny answers (errors, 204s) uncompressed, where
// gzip's header would cost more than it saves.
const gzipMinLength = 512

// compress gzips answers for clients that accept it. Event streams are
// skipped: a compressor buffers, and an event must reach the page the
// moment it is written. So are the hashed assets, compressed once at
// startup (static.go).
func compress() echo.MiddlewareFunc {
	return middleware.GzipWithConfig(middleware.GzipConfig{
		MinLength: gzipMinLength,
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return p == PathEvents || p == PathPageEvents || staticAsset(p) ||
				strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/event-stream")
		},
	})
}
