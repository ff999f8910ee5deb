package demoserver

import "github.com/mark3labs/mcp-go/mcp"

// behaviour lists all four tool hints. mcp.NewTool defaults to the worst case
// (not read-only, destructive, not idempotent, open-world), so every demo tool
// states each hint explicitly rather than inheriting that default.
type behaviour struct {
	readOnly, destructive, idempotent, openWorld bool
}

// readOnlyLocal describes a tool that only computes an answer from its inputs.
var readOnlyLocal = behaviour{readOnly: true, idempotent: true}

// newTool builds a tool with a description, a title (both the tool's own
// title field and the older annotation title, since clients read either) and
// every hint set from b.
func newTool(name, title, description string, b behaviour, opts ...mcp.ToolOption) mcp.Tool {
	base := []mcp.ToolOption{
		mcp.WithDescription(description),
		mcp.WithToolTitle(title),
		mcp.WithTitleAnnotation(title),
		mcp.WithReadOnlyHintAnnotation(b.readOnly),
		mcp.WithDestructiveHintAnnotation(b.destructive),
		mcp.WithIdempotentHintAnnotation(b.idempotent),
		mcp.WithOpenWorldHintAnnotation(b.openWorld),
	}
	return mcp.NewTool(name, append(base, opts...)...)
}
