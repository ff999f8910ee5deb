package views

import (
	"context"
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerElicitationsProps is a server's questions of no call, as its
// drawer shows them.
type DrawerElicitationsProps struct {
	Shown string // the ids shown, comma-separated, oldest first
	Forms []*ElicitationFormProps
}

// NewDrawerElicitationsProps builds the drawer's forms; postURL gives
// each question's answer URL.
func NewDrawerElicitationsProps(es []domain.Elicitation, postURL func(id string) string) DrawerElicitationsProps {
	p := DrawerElicitationsProps{}
	for _, e := range es {
		p.Forms = append(p.Forms, NewElicitationFormProps(e, "drawer-"+e.ID, postURL(e.ID)))
	}
	p.Shown = ElicitationsShown(es)
	return p
}

// ElicitationsShown is the value the drawer's poll sends for es.
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
