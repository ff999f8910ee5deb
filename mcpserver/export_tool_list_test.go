package mcpserver

import "net/http"

// ToolListsFromCache is how many tools/list answers on g's endpoints used
// the tools' cached encoding.
func ToolListsFromCache(g *Gateway) int64 {
	n := g.agg.listedFromCache.Load()
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, ep := range g.servers {
		n += ep.listedFromCache.Load()
	}
	return n
}

// EncodingHandler serves the endpoint at path (/mcp or /mcp/{server}, made
// already) as mcp-go does alone: it encodes every tool of every list, and
// sessions' tools are not hidden.
func EncodingHandler(g *Gateway, path string) http.Handler {
	if path == "/mcp" {
		return g.agg.http
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.servers[path[len("/mcp/"):]].http
}
