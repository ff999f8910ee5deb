package views

import (
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Placement says where a chip is drawn. The same server has a chip in the
// header, one in its list row and one in an open drawer, and each needs
// its own element ids for out-of-band swaps and aria-describedby.
type Placement string

const (
	PlaceHeader Placement = "h"
	PlaceRow    Placement = "r"
	PlaceDrawer Placement = "d"
)

// ChipProps is what a status chip shows.
type ChipProps struct {
	Name    string
	Key     string // ServerKey(Name), the stable part of every element id
	State   string // connecting, connected, error, disabled, sign_in: drives the dot's colour and shape
	StateID string // message id of the state's accessible name
	Badge   Message
	Tooltip *TooltipProps // nil draws the chip without one
	// SignIn, when set, offers Sign in beside a chip that has a button
	// (chip_signin.templ); nil offers none.
	SignIn *ChipSignInProps

	// Place decides the element ids; the zero value draws a drawer chip.
	Place Placement
	// DrawerURL is what the chip button loads into #drawer-slot; empty
	// draws the chip without a button, as inside the drawer itself.
	DrawerURL string
	// OOB marks the chip as an out-of-band swap of the one on the page.
	OOB bool
}

// NewChipProps decides the chip's state and badge from a status snapshot.
// The chip has no tooltip; NewChipPropsAt adds one.
func NewChipProps(s domain.Status) ChipProps {
	p := ChipProps{Name: s.ServerName, Key: ServerKey(s.ServerName), State: string(s.State), Place: PlaceDrawer, StateID: stateID(s.State)}
	switch s.State {
	case domain.StateConnected:
		p.Badge = Message{ID: "ToolCount", Data: map[string]any{"Count": s.ToolCount}}
	case domain.StateConnecting:
		p.Badge = Message{ID: "BadgeConnecting"}
		if s.Attempt > 0 || s.Error != "" {
			p.Badge = Message{ID: "BadgeReconnecting"}
		}
	case domain.StateError:
		p.Badge = Message{ID: "BadgeError", Data: map[string]any{"Category": string(s.ErrorCategory)}}
	default:
		p.Badge = Message{ID: "BadgeDisabled"}
		if s.DisabledReason == domain.DisabledAuto {
			p.Badge = Message{ID: "BadgeAutoDisabled"}
		}
	}
	if p.State = chipState(s); p.State == ChipSignIn {
		// Waiting for a person, not broken: said in words, never red.
		p.StateID = signInStateID(s)
		p.Badge = Message{ID: p.StateID}
	}
	if id, ok := blockedBadges[s.BlockedReason]; ok {
		p.Badge = Message{ID: id} // says why and how to recover, never a bare "disabled"
	}
	p.SignIn = newChipSignIn(s)
	return p
}

// ChipSignIn is the chip state of a server that waits for a person to
// sign in: its own dot shape and colour, not the error's.
const ChipSignIn = "sign_in"

// chipState is the state s's chip shows: the server's, or ChipSignIn. The
// header summary counts by it for every server on every update, so it
// builds nothing else.
func chipState(s domain.Status) string {
	if signInWaits(s) {
		return ChipSignIn
	}
	return string(s.State)
}

// blockedBadges names the badge of each reason a server is kept away.
var blockedBadges = map[domain.BlockedReason]string{
	domain.BlockedExcluded:   "BadgeBlockedExcluded",
	domain.BlockedNotAllowed: "BadgeBlockedNotAllowed",
	domain.BlockedPending:    "BadgeBlockedPending",
	domain.BlockedRejected:   "BadgeBlockedRejected",
}

// NewChipPropsAt is NewChipProps with the tooltip, whose relative times are
// seeded from now; the page's script keeps them current afterwards.
func NewChipPropsAt(s domain.Status, now time.Time) ChipProps {
	p := NewChipProps(s)
	t := NewTooltipProps(s, now)
	p.Tooltip = &t
	return p
}

// At places the chip, returning a copy whose ids are unique to place. A
// chip with a button that offers Sign in beside it says so in its
// tooltip, in place of the hint to open the server.
func (p ChipProps) At(place Placement, drawerURL string) ChipProps {
	p.Place = place
	p.DrawerURL = drawerURL
	if p.SignIn != nil && drawerURL != "" && p.Tooltip != nil {
		t := *p.Tooltip
		t.AuthHint = &Message{ID: "TipSignInBeside"}
		if t.Retry != nil && t.Retry.Deadline == nil && t.Retry.NoRetry.ID == "TipSignInHint" {
			t.Retry = nil // the hint above says it
		}
		p.Tooltip = &t
	}
	return p
}

// ID is the chip element's id, the target of its out-of-band swap.
func (p ChipProps) ID() string { return "chip-" + string(p.place()) + "-" + p.Key }

// ButtonID is the chip button's id; htmx gives focus back to an element
// with the same id after a swap, so a focused chip stays focused.
func (p ChipProps) ButtonID() string { return "chipbtn-" + string(p.place()) + "-" + p.Key }

// TooltipID is the tooltip's id, named by the button's aria-describedby.
func (p ChipProps) TooltipID() string { return "tip-" + string(p.place()) + "-" + p.Key }

func (p ChipProps) place() Placement {
	if p.Place == "" {
		return PlaceDrawer
	}
	return p.Place
}
