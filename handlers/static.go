package handlers

import (
	"io/fs"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/static"
)

// staticFiles serves the embedded assets. They change only with the
// binary, so browsers may cache them briefly but must revalidate.
func staticFiles() echo.HandlerFunc {
	files := http.FileServer(http.FS(static.FS))
	return func(c echo.Context) error {
		name := strings.TrimPrefix(c.Request().URL.Path, PathStatic+"/")
		if _, err := fs.Stat(static.FS, name); err != nil || strings.HasSuffix(name, "/") {
			return echo.ErrNotFound
		}
		h := c.Response().Header()
		h.Set("Cache-Control", "public, max-age=300, must-revalidate")
		r := c.Request().Clone(c.Request().Context())
		r.URL.Path = "/" + name
		files.ServeHTTP(c.Response(), r)
		return nil
	}
}
