package views

import (
	"strconv"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerActionsProps is the row of commands for one server.
type DrawerActionsProps struct {
	ID       string
	State    string
	Disabled bool // shows Enable instead of Disable
	// Blocked offers Remove only: a server gating or approval keeps away
	// has no process to restart, disable or enable; its blocked section
	// says what lifts the block.
	Blocked       bool
	RestartID     string
	ToggleID      string // shared by Disable and Enable, so focus survives the swap between them
	RemoveID      string
	ConfirmSlotID string
	URLs          DrawerURLs
	// Version is the snapshot's, so that the page keeps the newer of two
	// renderings that cross (the event stream's and a live reload's).
	Version uint64
}

// NewDrawerActionsProps decides which commands a snapshot offers.
func NewDrawerActionsProps(s domain.Status, urls DrawerURLs) DrawerActionsProps {
	key := ServerKey(s.ServerName)
	return DrawerActionsProps{
		ID:            DrawerActionsID(s.ServerName),
		State:         string(s.State),
		Disabled:      s.State == domain.StateDisabled,
		Blocked:       s.BlockedReason != domain.BlockedNone,
		RestartID:     "drawer-restart-" + key,
		ToggleID:      "drawer-toggle-" + key,
		RemoveID:      "drawer-remove-" + key,
		ConfirmSlotID: ConfirmSlotID(s.ServerName),
		URLs:          urls,
		Version:       s.Version,
	}
}

// DrawerActionsID is the id of a server's action row, which command
// responses replace.
func DrawerActionsID(name string) string { return "drawer-actions-" + ServerKey(name) }

// VersionAttr is the snapshot's version as an attribute value.
func (p DrawerActionsProps) VersionAttr() string { return strconv.FormatUint(p.Version, 10) }
