package mcpclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// aliveModern checks that a 2026-07-28 server still answers. That revision
// has no ping (mcp-go's Ping sends nothing on it), so the check is the
// first page of one list the server declared, tools before prompts before
// resources, and server/discover only when it declared none. The page goes
// straight to the server, past the ttlMs cache (listCache) a probe must not
// be answered from, and is thrown away: it is evidence of life, not a new
// list, so the lists and their change events are left to List. A server
// that declared a list it does not implement has still answered.
func (s *session) aliveModern(ctx context.Context) error {
	var err error
	method := mcp.MethodServerDiscover
	switch {
	case s.caps.Tools != nil:
		method = mcp.MethodToolsList
		_, err = s.client.ListToolsByPage(ctx, mcp.ListToolsRequest{})
	case s.caps.Prompts != nil:
		method = mcp.MethodPromptsList
		_, err = s.client.ListPromptsByPage(ctx, mcp.ListPromptsRequest{})
	case s.caps.Resources != nil:
		// Resources and their templates share one capability, so a
		// server that declared it answers resources/list.
		method = mcp.MethodResourcesList
		_, err = s.client.ListResourcesByPage(ctx, mcp.ListResourcesRequest{})
	default:
		_, err = s.client.Discover(ctx, mcp.DiscoverRequest{})
	}
	if err == nil || errors.Is(err, mcp.ErrMethodNotFound) {
		return nil
	}
	return fmt.Errorf("%s: %w", method, err)
}
