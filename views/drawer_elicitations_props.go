package views

import (
	"context"
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerElicitationsProps is a server's questions of no call, as its
// drawer shows them.
type DrawerElicitationsProps struct {
	// ID is the list element's id, which DrawerElicitationsLive swaps;
	// For sets it.
	ID    string
	Forms []*ElicitationFormProps
}

// NewDrawerElicitationsProps builds the drawer's forms; postURL gives
// each question's answer URL.
func NewDrawerElicitationsProps(es []domain.Elicitation, postURL func(id string) string) DrawerElicitationsProps {
	p := DrawerElicitationsProps{}
	for _, e := range es {
		p.Forms = append(p.Forms, NewElicitationFormProps(e, "drawer-"+e.ID, postURL(e.ID)))
	}
	return p
}

// For returns p as server's list, for an out-of-band swap.
func (p DrawerElicitationsProps) For(server string) DrawerElicitationsProps {
	p.ID = DrawerElicitationsID(server)
	return p
}

// DrawerElicitationsID is the id of server's drawer list of questions.
func DrawerElicitationsID(server string) string { return "drawer-elicit-" + ServerKey(server) }

// ElicitationsShown names the set of questions es, oldest first: the
// page event stream sends a server's list again when it changes.
func ElicitationsShown(es []domain.Elicitation) string {
	ids := make([]string, 0, len(es))
	for _, e := range es {
		ids = append(ids, e.ID)
	}
	return strings.Join(ids, ",")
}

// drawerElicitationsURL is where server's drawer loads its questions of
// no call from, or empty when the handlers serve none.
func drawerElicitationsURL(ctx context.Context, server string) string {
	if f := LinksFrom(ctx).Elicitations; f != nil {
		return f(server)
	}
	return ""
}
