package mcpserver

// WaitingCalls is how many calls on /mcp wait for a name to be listed.
func WaitingCalls(g *Gateway) int { return int(g.agg.waiting.Load()) }
