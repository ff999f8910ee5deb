package views

import (
	"context"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ChipSignInProps is the Sign in action beside a chip.
type ChipSignInProps struct {
	ID      string // unique per placement, so focus survives the chip's swaps
	Name    string
	Kind    string // ChipSignInFirst or ChipSignInMore
	LabelID string // message id of the accessible name, which names the server
	URL     string // where the form posts; empty draws nothing
}

// The kinds of sign-in a chip offers.
const (
	ChipSignInFirst = "sign_in"
	ChipSignInMore  = "more_access"
)

// newChipSignIn decides whether s's chip offers Sign in: when the server
// waits for a person to sign in (or to sign in again after a sign-in
// that failed or was left unfinished), or needs more access than the
// sign-in grants. A server that needs a client ID first gets none, since
// Sign in cannot work until the drawer's client ID form is filled in; a
// disabled or blocked server gets none until it is let run.
func newChipSignIn(s domain.Status) *ChipSignInProps {
	a := s.Auth
	if a == nil || s.State == domain.StateDisabled || s.BlockedReason != "" {
		return nil
	}
	p := &ChipSignInProps{Name: s.ServerName, Kind: ChipSignInFirst, LabelID: "ChipSignInTo"}
	switch {
	case a.MoreAccess:
		p.Kind, p.LabelID = ChipSignInMore, "ChipSignInMoreTo"
	case a.State == domain.AuthSignInNeeded, a.State == domain.AuthSigningIn, a.State == domain.AuthFailed:
	default:
		return nil
	}
	return p
}

// signIn is the chip's Sign in action where the chip is drawn: only a
// chip with a button (in the header and the list) carries one, since the
// drawer has its own sign-in section and a card its own step-up form.
func (p ChipProps) signIn(ctx context.Context) ChipSignInProps {
	if p.SignIn == nil || p.DrawerURL == "" {
		return ChipSignInProps{}
	}
	s := *p.SignIn
	s.ID = "chipsignin-" + string(p.place()) + "-" + p.Key
	if f := LinksFrom(ctx).SignIn; f != nil {
		s.URL = f(p.Name)
	}
	return s
}

// ChipSignInFormID is the page's one empty form that every chip's Sign in
// button submits through (with its own formaction).
const ChipSignInFormID = "chip-signin-form"
