package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// List loads every page of one list; mcp-go follows nextCursor and stops on
// a cursor that does not advance. A 2026-07-28 list is reused for as long
// as its ttlMs allows (see listCache). Every entry keeps the object the server
// sent beside mcp-go's reading of it. A list the server did not declare is
// empty rather than an error, since domain.LoadAll asks for all of them.
func (s *session) List(ctx context.Context, kind domain.ListKind) (domain.Capabilities, error) {
	var caps domain.Capabilities
	if !s.offers(kind) {
		return caps, nil
	}
	if cached, ok := s.lists.get(kind, time.Now()); ok {
		return cached, nil
	}
	ex := &exchange{}
	pages := &rawResults{}
	rctx := withRaw(withExchange(ctx, ex), pages)
	var err error
	switch kind {
	case domain.ListTools:
		var res *mcp.ListToolsResult
		if res, err = s.client.ListTools(rctx, mcp.ListToolsRequest{}); err == nil {
			tools := res.Tools
			if s.stubsToolPages() {
				tools, err = toolsFromPages(pages.all())
			}
			if err == nil {
				caps.Tools, err = convertTools(tools, rawTools(pages.all()))
			}
		}
	case domain.ListResources:
		var res *mcp.ListResourcesResult
		if res, err = s.client.ListResources(rctx, mcp.ListResourcesRequest{}); err == nil {
			caps.Resources = convertResources(res.Resources, rawEntries(pages.all(), "resources", "uri"))
		}
	case domain.ListResourceTemplates:
		var res *mcp.ListResourceTemplatesResult
		if res, err = s.client.ListResourceTemplates(rctx, mcp.ListResourceTemplatesRequest{}); err == nil {
			caps.ResourceTemplates = convertResourceTemplates(res.ResourceTemplates, rawEntries(pages.all(), "resourceTemplates", "uriTemplate"))
		}
	case domain.ListPrompts:
		var res *mcp.ListPromptsResult
		if res, err = s.client.ListPrompts(rctx, mcp.ListPromptsRequest{}); err == nil {
			caps.Prompts = convertPrompts(res.Prompts, rawEntries(pages.all(), "prompts", "name"))
		}
	default:
		return caps, fmt.Errorf("list %s: unknown list kind", kind)
	}
	if errors.Is(err, mcp.ErrMethodNotFound) {
		// Declared but not implemented: as good as empty.
		return domain.Capabilities{}, nil
	}
	if err != nil {
		return domain.Capabilities{}, s.requestError(ctx, ex, fmt.Errorf("list %s: %w", kind, err))
	}
	if mcp.IsModernProtocol(s.version) {
		s.lists.put(kind, caps, time.Now(), pagesTTL(pages.all()))
	}
	return caps, nil
}

// offers reports whether the server declared the capability behind kind.
func (s *session) offers(kind domain.ListKind) bool {
	switch kind {
	case domain.ListTools:
		return s.caps.Tools != nil
	case domain.ListResources, domain.ListResourceTemplates:
		return s.caps.Resources != nil
	case domain.ListPrompts:
		return s.caps.Prompts != nil
	}
	return true
}
