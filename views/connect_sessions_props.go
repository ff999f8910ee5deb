package views

import (
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ConnectSessionsProps lists the AI clients connected through the
// gateway: live legacy sessions first, then 2026-07-28 clients seen
// recently.
type ConnectSessionsProps struct {
	Shown bool // false when there is no gateway: nothing is rendered
	Rows  []ConnectSessionRow
}

// ConnectSessionRow is one client session or identity.
type ConnectSessionRow struct {
	Legacy   bool
	Name     string // as the client introduced itself; may be empty
	Version  string
	Token    string // the client token's name; empty for the owner's token
	Endpoint string
	Since    time.Time
	LastSeen time.Time
	Calls    int
}

// NewConnectSessionsProps turns the gateway's list into rows, in its
// order.
func NewConnectSessionsProps(clients []domain.GatewayClient) ConnectSessionsProps {
	p := ConnectSessionsProps{Shown: true}
	for _, c := range clients {
		p.Rows = append(p.Rows, ConnectSessionRow{Legacy: c.Legacy, Name: c.Client.Name, Version: c.Client.Version,
			Token: c.Client.Token, Endpoint: c.Endpoint, Since: c.Since, LastSeen: c.LastSeen, Calls: c.Calls})
	}
	return p
}
