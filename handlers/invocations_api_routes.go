package handlers

import (
	"net/url"
	"strings"
)

// InvocationPath fills pattern's invocation id with id, escaped.
func InvocationPath(pattern, id string) string {
	return strings.Replace(pattern, ":"+idParam, url.PathEscape(id), 1)
}

// ToolCallPath fills PathToolCall for one server and tool, both escaped.
func ToolCallPath(server, tool string) string {
	return strings.Replace(ServerPath(PathToolCall, server), ":"+toolParam, url.PathEscape(tool), 1)
}
