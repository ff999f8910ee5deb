package views

import "github.com/switchboard-mcp/switchboard/domain"

// DrawerActionsProps is the row of commands for one server.
type DrawerActionsProps struct {
	ID            string
	State         string
	Disabled      bool // shows Enable instead of Disable
	RestartID     string
	ToggleID      string // shared by Disable and Enable, so focus survives the swap between them
	RemoveID      string
	ConfirmSlotID string
	URLs          DrawerURLs
}

// NewDrawerActionsProps decides which commands a snapshot offers.
func NewDrawerActionsProps(s domain.Status, urls DrawerURLs) DrawerActionsProps {
	key := ServerKey(s.ServerName)
	return DrawerActionsProps{
		ID:            DrawerActionsID(s.ServerName),
		State:         string(s.State),
		Disabled:      s.State == domain.StateDisabled,
		RestartID:     "drawer-restart-" + key,
		ToggleID:      "drawer-toggle-" + key,
		RemoveID:      "drawer-remove-" + key,
		ConfirmSlotID: ConfirmSlotID(s.ServerName),
		URLs:          urls,
	}
}

// DrawerActionsID is the id of a server's action row, which command
// responses replace.
func DrawerActionsID(name string) string { return "drawer-actions-" + ServerKey(name) }
