package views

// ConfirmProps is the question asked before a server is removed.
type ConfirmProps struct {
	ID      string
	TitleID string
	BodyID  string
	NoID    string
	Name    string
	Source  string // the settings file that will be edited; empty when none
	URL     string // POST removes
	// DrawerSlot is where the drawer lives; a successful remove empties it.
	DrawerSlot string
}

// NewConfirmProps builds the remove confirmation for one server.
func NewConfirmProps(name, source, removeURL string) ConfirmProps {
	key := ServerKey(name)
	return ConfirmProps{
		ID:         "confirm-" + key,
		TitleID:    "confirm-title-" + key,
		BodyID:     "confirm-body-" + key,
		NoID:       "confirm-no-" + key,
		Name:       name,
		Source:     source,
		URL:        removeURL,
		DrawerSlot: "#drawer-slot",
	}
}
