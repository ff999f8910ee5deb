package mcpserver

import "github.com/switchboard-mcp/switchboard/domain"

// Catalogue returns what /mcp lists now: the exposed servers, each tool's
// and prompt's name there, and the resource URIs several servers list.
// It is immutable, so the drawer may read it while the gateway refreshes.
func (g *Gateway) Catalogue() *domain.Catalogue { return g.agg.cat.Load() }
