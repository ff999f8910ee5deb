package views

import (
	"maps"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ServerUpdateProps is one server's out-of-band swaps on the page event
// stream: its list row and the header summary, both rendered from the
// same snapshots so they can never disagree.
type ServerUpdateProps struct {
	Row    ServerRowProps
	Status domain.Status // for pieces rendered by other components (the drawer header)
	// Summary is the header's counts over every server the page shows;
	// nil leaves it as it is.
	Summary *HeaderSummaryProps
}

// NewServerUpdateProps builds the swaps for one snapshot.
func NewServerUpdateProps(s domain.Status, now time.Time, drawerURL string) ServerUpdateProps {
	row := NewServerRowProps(s, now, drawerURL)
	row.OOB = true
	return ServerUpdateProps{Row: row, Status: s}
}

// WithSummary adds the header summary of shown, every server the page
// shows after this update.
func (p ServerUpdateProps) WithSummary(shown map[string]domain.Status) ServerUpdateProps {
	sum := summaryOf(maps.Values(shown), "")
	sum.OOB = true
	p.Summary = &sum
	return p
}

// FullStateProps replaces the header summary and the whole list, so a
// page that missed events, or whose set of servers changed, heals in one
// swap.
type FullStateProps struct {
	Summary HeaderSummaryProps
	Servers ServerListProps
}

// NewFullStateProps builds the full-state swap from every current snapshot.
func NewFullStateProps(list []domain.Status, now time.Time, drawer func(string) string) FullStateProps {
	sum, rows := NewFleetProps(list, now, drawer, "")
	sum.OOB, rows.OOB = true, true
	return FullStateProps{Summary: sum, Servers: rows}
}

// DrawerEvent names the page event that carries a server's drawer header.
// Only an open drawer listens for it (sse-swap on the drawer element, inside
// the live element), so a header never arrives where there is no element to
// swap, which htmx would log as an error.
func DrawerEvent(name string) string { return "drawer-" + ServerKey(name) }
