package views

import (
	"github.com/switchboard-mcp/switchboard/domain"
)

// FeedLimit is how many cards the page's feed holds, newest first.
const FeedLimit = 50

// DrawerFeedLimit is how many of a server's calls its drawer shows.
const DrawerFeedLimit = 10

// FeedListID is the page feed's list element, the target of live inserts.
const FeedListID = "activity-feed-list"

// DrawerFeedListID is the list of recent calls in a server's drawer.
func DrawerFeedListID(server string) string { return "dinvlist-" + ServerKey(server) }

// FeedProps is a list of cards: the page feed, a drawer's recent calls or
// a page of history.
type FeedProps struct {
	Cards []InvocationCardProps
	OOB   bool // replace the page's list out of band (a stream's full state)
}

// CardInsertProps puts a new card at the top of a list out of band.
type CardInsertProps struct {
	ListID string
	Card   InvocationCardProps
}

// Swap is the htmx out-of-band swap spec of the insert.
func (p CardInsertProps) Swap() string { return "afterbegin:#" + p.ListID }

// HistoryProps is the history view: the filters as given, the page of
// cards and the link to older ones.
type HistoryProps struct {
	Server, Tool, Status string
	Servers              []string
	Statuses             []string
	Cards                []InvocationCardProps
	OlderURL             string // empty on the last page
	PageOnly             bool   // answer an "Older" request: cards and the next button only
}

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
