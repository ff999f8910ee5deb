package domain

// Where an invocation came from.
const (
	SourceDashboard = "dashboard" // a person's Run in the dashboard
	SourceAPI       = "api"       // a request to /api/v1
	SourceGateway   = "gateway"   // an AI client's call through Switchboard's MCP endpoints
)

// ClientIdentity is the AI client behind a gateway call, as it introduced
// itself (initialize's clientInfo, or a 2026-07-28 request's _meta), and
// the name of the client token it used — never the token itself.
type ClientIdentity struct {
	Name    string
	Version string
	Token   string
}
