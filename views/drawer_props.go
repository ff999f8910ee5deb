package views

import (
	"strconv"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerURLs are the endpoints one server's drawer talks to. The handlers
// own the route table, so they fill these in; views never spell a URL.
type DrawerURLs struct {
	Live     string // the drawer's live parts: capabilities, actions, stderr
	Restart  string
	Disable  string
	Enable   string
	Settings string
	Remove   string // GET: the confirmation; POST: remove
	// Approve and Reject decide about a project server awaiting or
	// refused approval, from its drawer.
	Approve, Reject string
	// The sign-in section's forms; empty when no server uses sign-in.
	AuthStart, AuthSignOut, AuthComplete, AuthClient string
	// History is where the history section draws its pictures from
	// (drawer_history.templ); empty when the dashboard keeps no history.
	History string
}

// DrawerProps is one server's detail panel.
type DrawerProps struct {
	ID            string
	Name          string
	TitleID       string
	ConfirmSlotID string
	Header        DrawerHeaderProps
	Actions       DrawerActionsProps
	Settings      DrawerSettingsProps
	Caps          DrawerCapsProps
	Stderr        DrawerStderrProps
	Auth          DrawerAuthProps // a remote server's sign-in; shows nothing for others
	// Blocked says why gating or approval keeps the server away and what
	// to do; it shows nothing for a server that is not blocked.
	Blocked DrawerBlockedProps
	// Gateway is how AI clients reach the server on /mcp; the handler
	// fills it from the gateway's catalogue, and it shows nothing unset.
	Gateway GatewayNamesProps
	// Logs is the server's log messages, filled by the handler from
	// domain.ServerLogs; unset, the drawer shows no log section.
	Logs DrawerLogsProps
	// History is the uptime strip and latency sparklines' section.
	History DrawerHistoryProps
}

// NewDrawerProps builds the whole drawer from one snapshot, the cached
// capability lists and the recent stderr lines, so every part of it tells
// the same story.
func NewDrawerProps(s domain.Status, caps domain.Capabilities, stderr []string, urls DrawerURLs) DrawerProps {
	key := ServerKey(s.ServerName)
	return DrawerProps{
		ID:            "drawer-" + key,
		Name:          s.ServerName,
		TitleID:       drawerTitleID(s.ServerName),
		ConfirmSlotID: ConfirmSlotID(s.ServerName),
		Header:        NewDrawerHeaderProps(s),
		Actions:       NewDrawerActionsProps(s, urls),
		Settings:      NewDrawerSettingsProps(s, urls.Settings),
		Caps:          NewDrawerCapsProps(s, caps, urls.Live),
		Stderr:        NewDrawerStderrProps(s, stderr),
		Auth:          NewDrawerAuthProps(s, urls),
		Blocked:       NewDrawerBlockedProps(s, urls),
		History:       NewDrawerHistorySlot(s.ServerName, urls.History),
	}
}

// ConfirmSlotID is the id of the element inside a drawer that receives
// the remove confirmation, so the handler can target it.
func ConfirmSlotID(name string) string { return "confirm-slot-" + ServerKey(name) }

func drawerTitleID(name string) string { return "drawer-title-" + ServerKey(name) }

// liveStamp names what the capability lists and actions were rendered
// from: a change of state, of the reason a server is blocked (a decision
// turns pending into rejected without a change of state) or a new
// capability load makes it differ from the header's, which tells the
// drawer's script to reload them.
func liveStamp(s domain.Status) string {
	var sync int64
	if !s.LastSyncAt.IsZero() {
		sync = s.LastSyncAt.UnixMilli()
	}
	return string(s.State) + ":" + strconv.FormatInt(sync, 10) + ":" + authStamp(s.Auth) + ":" + string(s.BlockedReason)
}
