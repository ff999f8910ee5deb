package mcpserver

// UpstreamHolds is how many client subscriptions (legacy sessions' and
// listen streams') hold uri of server, for tests to see a stream let go.
func UpstreamHolds(g *Gateway, server, uri string) int {
	g.upstream.mu.Lock()
	defer g.upstream.mu.Unlock()
	return g.upstream.count[upstreamSub{server, uri}]
}
