package handlers

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// MCPGateway serves MCP to AI clients: the aggregated endpoint and one per
// server (mcpserver.Gateway). Handlers only mount it.
type MCPGateway interface {
	Aggregated() http.Handler
	// Server returns the endpoint of one server, or false when there is
	// no server of that name.
	Server(name string) (http.Handler, bool)
	// Refresh rebuilds what clients see now and tells connected clients
	// when a list changed; whoever changes what is exposed without a
	// status change (a tool's policy) calls it.
	Refresh()
	// Catalogue is what /mcp lists now, for the drawer's names on /mcp;
	// nil lists nothing.
	Catalogue() *domain.Catalogue
	// Clients lists the live legacy sessions and the 2026-07-28 clients
	// seen recently, for the Connect page.
	Clients() []domain.GatewayClient
	// CloseToken ends what a revoked client token holds open: event
	// streams, calls in flight, legacy sessions.
	CloseToken(name string)
}

// refreshGateway tells the gateway, when there is one, that what it
// exposes may have changed.
func refreshGateway(g MCPGateway) {
	if g != nil {
		g.Refresh()
	}
}

// mcpMount hands MCP requests to the gateway. Authentication happened
// before routing (requireToken: a bearer token only, never the cookie);
// here every request, GETs included, must come from no browser page but
// this server's own, because an event stream reads as much as a POST
// changes.
type mcpMount struct {
	gateway MCPGateway
	hosts   hostPolicy
}

func (m *mcpMount) checkOrigin(c echo.Context) error {
	req := c.Request()
	if origin := req.Header.Get(echo.HeaderOrigin); origin != "" && !m.hosts.allowsOrigin(origin, req.Host) {
		return &apiError{http.StatusForbidden, "forbidden_origin", "MCP requests from another site's pages are refused"}
	}
	if req.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return &apiError{http.StatusForbidden, "forbidden_origin", "MCP requests from another site's pages are refused"}
	}
	return nil
}

// MaxMCPRequestBytes bounds one message an AI client posts to an MCP
// endpoint: mcp-go reads a request body whole, and arguments as large as
// the biggest message a server may send are already generous.
const MaxMCPRequestBytes = 32 << 20

// bounded caps the request body at MaxMCPRequestBytes; a larger one fails
// to read, and mcp-go answers it as a parse error.
func bounded(c echo.Context) *http.Request {
	req := c.Request()
	req.Body = http.MaxBytesReader(c.Response(), req.Body, MaxMCPRequestBytes)
	return req
}

func (m *mcpMount) aggregated(c echo.Context) error {
	if err := m.checkOrigin(c); err != nil {
		return err
	}
	m.gateway.Aggregated().ServeHTTP(c.Response(), bounded(c))
	return nil
}

func (m *mcpMount) server(c echo.Context) error {
	if err := m.checkOrigin(c); err != nil {
		return err
	}
	name, err := serverName(c)
	if err != nil {
		return err
	}
	h, ok := m.gateway.Server(name)
	if !ok {
		return &apiError{http.StatusNotFound, "not_found", fmt.Sprintf("no server is named %q", name)}
	}
	h.ServeHTTP(c.Response(), bounded(c))
	return nil
}
