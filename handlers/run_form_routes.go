package handlers

import (
	"net/url"
	"strings"
)

// RunFormPath fills PathUIRunForm for one server and tool, both escaped.
func RunFormPath(server, tool string) string {
	return strings.Replace(ServerPath(PathUIRunForm, server), ":"+toolParam, url.PathEscape(tool), 1)
}
