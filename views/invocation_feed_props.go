package views

import (
	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerFeedLimit is how many of a server's calls its drawer shows.
const DrawerFeedLimit = 10

// DrawerFeedListID is the list of recent calls in a server's drawer.
func DrawerFeedListID(server string) string { return "dinvlist-" + ServerKey(server) }

// FeedProps is a drawer's list of its server's recent calls.
type FeedProps struct {
	Cards []InvocationCardProps
}

// CardInsertProps puts a new card at the top of a list out of band.
type CardInsertProps struct {
	ListID string
	Card   InvocationCardProps
}

// Swap is the htmx out-of-band swap spec of the insert.
func (p CardInsertProps) Swap() string { return "afterbegin:#" + p.ListID }

// DrawerInvocationsProps is the drawer's section of recent calls.
type DrawerInvocationsProps struct {
	ListID string
	Server string
}

// NewDrawerInvocationsProps points the section at the server's history.
func NewDrawerInvocationsProps(server string) DrawerInvocationsProps {
	return DrawerInvocationsProps{
		ListID: DrawerFeedListID(server),
		Server: server,
	}
}

func statusOf(s string) domain.InvocationStatus { return domain.InvocationStatus(s) }
