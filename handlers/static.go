package handlers

import (
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/static"
)

// immutable lets a browser keep an asset for a year without asking again:
// its file name holds a hash of its bytes, so new bytes get a new name.
const immutable = "public, max-age=31536000, immutable"

// mustAssets returns the embedded bundles. They are built from files
// compiled into the binary, so a failure is a bug in this release, found
// by the first test that starts a server, not a condition to handle.
func mustAssets() *static.Assets {
	a, err := static.Load()
	if err != nil {
		panic(fmt.Sprintf("handlers: build the embedded assets: %v", err))
	}
	return a
}

// AssetURL is where the bundle called name (static.DashboardJS, …) is
// served, under its content-hashed file name.
func AssetURL(name string) string { return PathStatic + "/" + mustAssets().File(name) }

// staticAsset reports whether path names a content-hashed bundle, which is
// served compressed already and must skip the gzip middleware.
func staticAsset(path string) bool {
	name, ok := strings.CutPrefix(path, PathStatic+"/")
	if !ok {
		return false
	}
	_, ok = mustAssets().Lookup(name)
	return ok
}

// staticFiles serves the bundles under their hashed names, cached for
// good, in the best encoding the browser accepts. The source files stay
// reachable under their own names for anything that still asks for one;
// those may change with the binary, so a browser revalidates them.
func staticFiles() echo.HandlerFunc {
	assets := mustAssets()
	files := http.FileServer(http.FS(static.FS))
	return func(c echo.Context) error {
		name := strings.TrimPrefix(c.Request().URL.Path, PathStatic+"/")
		if a, ok := assets.Lookup(name); ok {
			return serveAsset(c, a)
		}
		if _, err := fs.Stat(static.FS, name); err != nil || strings.HasSuffix(name, "/") {
			return echo.ErrNotFound
		}
		c.Response().Header().Set("Cache-Control", "no-cache")
		r := c.Request().Clone(c.Request().Context())
		r.URL.Path = "/" + name
		files.ServeHTTP(c.Response(), r)
		return nil
	}
}

// serveAsset writes a's precompressed body: brotli where the request
// accepts it, else gzip, else the plain bytes.
func serveAsset(c echo.Context, a *static.Asset) error {
	h := c.Response().Header()
	h.Set("Cache-Control", immutable)
	h.Add("Vary", "Accept-Encoding")
	body := a.Body
	switch enc := contentEncoding(c.Request().Header.Get("Accept-Encoding")); enc {
	case "br":
		body = a.Brotli
		h.Set("Content-Encoding", enc)
	case "gzip":
		body = a.Gzip
		h.Set("Content-Encoding", enc)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	return c.Blob(http.StatusOK, a.ContentType, body)
}
