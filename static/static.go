// Package static embeds the dashboard's stylesheets and scripts, htmx and
// its SSE extension included, so the binary serves every asset itself and
// works offline inside desktop webviews.
package static

import "embed"

// FS holds every asset under its path, e.g. "css/app.css" or
// "js/htmx-2.0.11.min.js".
//
//go:embed css js
var FS embed.FS
