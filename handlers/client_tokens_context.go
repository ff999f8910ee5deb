package handlers

import "context"

// mcpTokenKey is the context key under which an MCP request carries the
// name of the token it was let in with.
type mcpTokenKey struct{}

func withMCPTokenName(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, mcpTokenKey{}, name)
}

// MCPTokenName returns the name of the token an MCP request was let in
// with: domain.OwnerTokenName for the access token, else the client
// token's name. The gateway reads it from the request's context (echo's
// c.Request().Context(), or r.Context() inside a wrapped http.Handler) to
// record which client made a call; it is "" outside the MCP endpoints.
func MCPTokenName(ctx context.Context) string {
	name, _ := ctx.Value(mcpTokenKey{}).(string)
	return name
}
