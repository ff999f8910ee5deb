// Package static embeds the dashboard's stylesheets (and, later, vendored
// scripts) so the binary serves every asset itself and works offline
// inside desktop webviews.
package static

import "embed"

// FS holds every asset under its path, e.g. "css/app.css".
//
//go:embed css
var FS embed.FS
