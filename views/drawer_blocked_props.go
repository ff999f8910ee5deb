package views

import "github.com/switchboard-mcp/switchboard/domain"

// DrawerBlockedProps is the drawer's account of a server that gating or
// approval keeps away: why, in words, and the way out. A blocked server
// has no process, so this section takes the place of what a running one
// would show; for a project server it also shows the configuration as
// written, the one a decision applies to.
type DrawerBlockedProps struct {
	ID     string
	Show   bool
	Reason string // the domain's BlockedReason, for scripts and tests
	// Why says what keeps the server away, and WayOut what a person can
	// do about it, one sentence each.
	Why    Message
	WayOut []Message
	// Config is the entry as written, for a project server awaiting or
	// refused approval; nil for a gated one, whose header shows its target.
	Config *ApprovalProps
	// ApproveURL and RejectURL decide about Config; Reject is offered only
	// while the question is open (a rejected server is already refused).
	ApproveURL string
	RejectURL  string
}

// blockedWhy and blockedWayOut word each reason. Gating names the exact
// settings key and start-up flag to edit, so nobody has to guess which.
var (
	blockedWhy = map[domain.BlockedReason]string{
		domain.BlockedExcluded:   "DrawerBlockedExcluded",
		domain.BlockedNotAllowed: "DrawerBlockedNotAllowed",
		domain.BlockedPending:    "DrawerBlockedPending",
		domain.BlockedRejected:   "DrawerBlockedRejected",
	}
	blockedWayOut = map[domain.BlockedReason]string{
		domain.BlockedExcluded:   "DrawerWayOutExcluded",
		domain.BlockedNotAllowed: "DrawerWayOutNotAllowed",
		domain.BlockedPending:    "DrawerWayOutPending",
		domain.BlockedRejected:   "DrawerWayOutRejected",
	}
)

// NewDrawerBlockedProps explains s's block, or shows nothing for a server
// that is not blocked. The element is always there, so a live reload can
// fill or empty it when the block starts or ends with the drawer open.
func NewDrawerBlockedProps(s domain.Status, urls DrawerURLs) DrawerBlockedProps {
	p := DrawerBlockedProps{ID: DrawerBlockedID(s.ServerName)}
	why, ok := blockedWhy[s.BlockedReason]
	if !ok {
		return p
	}
	data := map[string]any{"Name": s.ServerName}
	p.Show, p.Reason = true, string(s.BlockedReason)
	p.Why = Message{ID: why, Data: data}
	p.WayOut = []Message{{ID: blockedWayOut[s.BlockedReason], Data: data}}
	if s.Source != "" {
		p.WayOut = append(p.WayOut, Message{ID: "DrawerWayOutRemoveFile", Data: map[string]any{"File": s.Source}})
	} else {
		p.WayOut = append(p.WayOut, Message{ID: "DrawerWayOutRemove"})
	}
	if s.Approval != nil && (s.BlockedReason == domain.BlockedPending || s.BlockedReason == domain.BlockedRejected) {
		cfg := ApprovalProps{Name: s.ServerName, Source: s.Source}
		cfg.fill(s.Approval)
		p.Config = &cfg
		p.ApproveURL = urls.Approve
		if s.BlockedReason == domain.BlockedPending {
			p.RejectURL = urls.Reject
		}
	}
	return p
}

// DrawerBlockedID is the id of a server's blocked section.
func DrawerBlockedID(name string) string { return "drawer-blocked-" + ServerKey(name) }
