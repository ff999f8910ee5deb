package views

import (
	"slices"
	"strconv"
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ConnectFileProps is the part of a client's section that edits its
// config file: the servers it lists, the form that writes Switchboard's
// entry and imports those servers, the confirmation, and the undo.
type ConnectFileProps struct {
	ClientID, ClientName string
	// Unavailable is the message id saying why the file cannot be shown
	// (no such file on this OS); empty when it can.
	Unavailable string
	Path        string
	Exists      bool
	HasEntry    bool
	Servers     []ConnectFileServer
	// CanWrite says Switchboard can make a client token to write; false
	// in the demo. CanImport says there is a settings file to import to.
	CanWrite, CanImport bool
	Backup              string // what an undo restores; empty when none
	// Review holds the confirmation of a change; nil shows the form.
	Review *ConnectFileReview
	// Notes say what the last action did, announced politely; Error is
	// the message id of a refused or failed one.
	Notes []ConnectFileNote
	Error string
	// ReviewURL takes the form to the confirmation, ApplyURL makes the
	// change, UndoURL undoes the last one, and PanelURL shows the form
	// again (cancel).
	ReviewURL, ApplyURL, UndoURL, PanelURL string
	// Tokens, when set, replaces the list of client tokens too: a write
	// made a new one.
	Tokens *ConnectTokensProps
}

// ConnectFileServer is one server the client's file lists, shortened for
// the page; every field is untrusted text from that file.
type ConnectFileServer struct {
	Name, Transport, Target string
	Taken                   bool // Switchboard's settings have the name already
	Checked                 bool
}

// ConnectFileReview is the change awaiting a person's confirmation.
type ConnectFileReview struct {
	Undo   bool     // the change is an undo of the last write
	Write  bool     // set Switchboard's entry, with a new client token
	Import []string // servers to move into Switchboard's settings
	// Taken are the chosen names Switchboard's settings already have:
	// the client's entry goes, Switchboard's stays.
	Taken []string
}

// ConnectFileNote is one sentence about what an action did.
type ConnectFileNote struct {
	ID   string
	Data map[string]any
}

// ConnectFileURLs are the panel's endpoints for one client.
type ConnectFileURLs struct{ Review, Apply, Undo, Panel string }

// connectTargetMax bounds a command line or URL on the page; the whole
// text stays in the title attribute.
const connectTargetMax = 60

// NewConnectFileProps shows the client's file as it is: every server
// checked for import but those Switchboard's settings already name.
func NewConnectFileProps(c domain.ConnectClient, st domain.ClientConfigState, canWrite bool, u ConnectFileURLs) ConnectFileProps {
	p := ConnectFileProps{
		ClientID: c.ID, ClientName: c.Name, Path: st.Path, Exists: st.Exists, HasEntry: st.HasEntry,
		CanWrite: canWrite, CanImport: st.CanImport, Backup: st.Backup,
		ReviewURL: u.Review, ApplyURL: u.Apply, UndoURL: u.Undo, PanelURL: u.Panel,
	}
	for _, s := range st.Servers {
		p.Servers = append(p.Servers, ConnectFileServer{
			Name: s.Name, Transport: s.Transport, Target: shorten(s.Target, connectTargetMax),
			Taken: s.Taken, Checked: st.CanImport && !s.Taken,
		})
	}
	return p
}

// NewConnectFileReview is the confirmation of a change: the chosen names
// the file lists, in its order, split into those to add and those
// Switchboard already has. It returns nil when nothing was chosen.
func NewConnectFileReview(st domain.ClientConfigState, write bool, chosen []string) *ConnectFileReview {
	r := &ConnectFileReview{Write: write}
	for _, s := range st.Servers {
		if !slices.Contains(chosen, s.Name) {
			continue
		}
		r.Import = append(r.Import, s.Name)
		if s.Taken {
			r.Taken = append(r.Taken, s.Name)
		}
	}
	if !r.Write && len(r.Import) == 0 {
		return nil
	}
	return r
}

// ConnectFileAppliedNotes say what a change did.
func ConnectFileAppliedNotes(path, token string, res domain.ClientConfigResult) []ConnectFileNote {
	var notes []ConnectFileNote
	if token != "" {
		notes = append(notes, ConnectFileNote{"ConnectFileWrote", map[string]any{"Path": path, "Token": token}})
	} else {
		notes = append(notes, ConnectFileNote{"ConnectFileChanged", map[string]any{"Path": path}})
	}
	if len(res.Added) > 0 {
		notes = append(notes, ConnectFileNote{"ConnectFileAdded", map[string]any{"Names": joinNames(res.Added)}})
	}
	if len(res.Kept) > 0 {
		notes = append(notes, ConnectFileNote{"ConnectFileKeptTheirs", map[string]any{"Names": joinNames(res.Kept)}})
	}
	if res.Backup != "" {
		notes = append(notes, ConnectFileNote{"ConnectFileBackedUp", map[string]any{"Backup": res.Backup}})
	}
	return notes
}

// ConnectFileUndoneNotes say what an undo did.
func ConnectFileUndoneNotes(path string, res domain.ClientUndoResult) []ConnectFileNote {
	notes := []ConnectFileNote{{"ConnectFileRestored", map[string]any{"Path": path, "Backup": res.Backup}}}
	if len(res.Removed) > 0 {
		notes = append(notes, ConnectFileNote{"ConnectFileRemoved", map[string]any{"Names": joinNames(res.Removed)}})
	}
	if len(res.Kept) > 0 {
		notes = append(notes, ConnectFileNote{"ConnectFileKeptEdited", map[string]any{"Names": joinNames(res.Kept)}})
	}
	return notes
}

// joinNames lists server names for a sentence; names are not translated.
func joinNames(names []string) string { return strings.Join(names, ", ") }

// shorten cuts s to max runes, ending with an ellipsis when cut.
func shorten(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-1]) + "…"
}

// connectFileBoxID is the id of the checkbox of the i-th server; names
// are untrusted and may hold anything, so the index names it.
func connectFileBoxID(client string, i int) string {
	return "connect-file-" + client + "-" + strconv.Itoa(i)
}

// TakesFocus reports whether the panel takes the focus when swapped in:
// after an action, whose button is gone, so the focus is not lost.
func (p ConnectFileProps) TakesFocus() bool { return len(p.Notes) > 0 || p.Error != "" }
