package views

import (
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerStderrProps is the recent output of a stdio server.
type DrawerStderrProps struct {
	ID        string
	HeadingID string
	// Remote servers have no process of ours and so no stderr; the drawer
	// says so instead of showing an empty box.
	Remote bool
	Text   string // lines joined, newest last; already redacted
	Empty  bool
}

// NewDrawerStderrProps joins the lines for one <pre>.
func NewDrawerStderrProps(s domain.Status, lines []string) DrawerStderrProps {
	key := ServerKey(s.ServerName)
	return DrawerStderrProps{
		ID:        DrawerStderrID(s.ServerName),
		HeadingID: "drawer-stderr-heading-" + key,
		Remote:    s.Transport != domain.TransportStdio,
		Text:      strings.Join(lines, "\n"),
		Empty:     len(lines) == 0,
	}
}

// DrawerStderrID is the id of a server's stderr section.
func DrawerStderrID(name string) string { return "drawer-stderr-" + ServerKey(name) }
