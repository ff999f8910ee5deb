package views

import "github.com/switchboard-mcp/switchboard/domain"

// InvocationSourceProps says where a call came from, next to its time:
// "Claude Code 1.2 · via gateway", "via the API", "from the dashboard".
type InvocationSourceProps struct {
	Source string // dashboard, api or gateway
	Text   Message
	Token  string // the client token's name, for a gateway call that used one
}

// NewInvocationSourceProps words inv's source. The client's name and
// version are the client's own words, shown escaped like any other text.
func NewInvocationSourceProps(inv domain.Invocation) *InvocationSourceProps {
	p := &InvocationSourceProps{Source: inv.Source, Token: inv.Client.Token}
	cl := inv.Client
	switch {
	case inv.Source == domain.SourceAPI:
		p.Text = Message{ID: "InvocationSourceAPI"}
	case inv.Source == domain.SourceGateway && cl.Name != "" && cl.Version != "":
		p.Text = Message{ID: "InvocationSourceClientVersion", Data: map[string]any{"Client": cl.Name, "Version": cl.Version}}
	case inv.Source == domain.SourceGateway && cl.Name != "":
		p.Text = Message{ID: "InvocationSourceClient", Data: map[string]any{"Client": cl.Name}}
	case inv.Source == domain.SourceGateway:
		p.Text = Message{ID: "InvocationSourceGateway"}
	default:
		p.Source, p.Text = domain.SourceDashboard, Message{ID: "InvocationSourceDashboard"}
	}
	return p
}
