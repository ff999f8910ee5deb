package views

import (
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ServerUpdateProps is one server's out-of-band swaps on the page event
// stream: its header chip and its list row, both rendered from the same
// snapshot so they can never disagree.
type ServerUpdateProps struct {
	Chip   ChipProps
	Row    ServerRowProps
	Status domain.Status // for pieces rendered by other components (the drawer header)
}

// NewServerUpdateProps builds the swaps for one snapshot.
func NewServerUpdateProps(s domain.Status, now time.Time, drawerURL string) ServerUpdateProps {
	chip := NewChipPropsAt(s, now).At(PlaceHeader, drawerURL)
	chip.OOB = true
	row := NewServerRowProps(s, now, drawerURL)
	row.OOB = true
	return ServerUpdateProps{Chip: chip, Row: row, Status: s}
}

// FullStateProps replaces the header chips and the whole list, so a page
// that missed events, or whose set of servers changed, heals in one swap.
type FullStateProps struct {
	Chips   ChipListProps
	Servers ServerListProps
}

// NewFullStateProps builds the full-state swap from every current snapshot.
func NewFullStateProps(list []domain.Status, now time.Time, drawer func(string) string) FullStateProps {
	chips, rows := NewFleetProps(list, now, drawer)
	chips.OOB, rows.OOB = true, true
	return FullStateProps{Chips: chips, Servers: rows}
}

// DrawerEvent names the page event that carries a server's drawer header.
// Only an open drawer listens for it (sse-swap on the drawer element, inside
// the live element), so a header never arrives where there is no element to
// swap, which htmx would log as an error.
func DrawerEvent(name string) string { return "drawer-" + ServerKey(name) }
