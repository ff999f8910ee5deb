package views

import (
	"context"
	"net/url"
)

// RunFromParam is the run form's query parameter naming a call whose
// arguments fill the form: Edit and re-run opens the form with them.
const RunFromParam = "from"

// editRunURL is where a card's Edit and re-run loads the run form,
// filled with the arguments of call id; empty when the page has no run
// form links (markup-only tests).
func editRunURL(ctx context.Context, server, tool, id string) string {
	u := runFormURL(ctx, server, tool)
	if u == "" {
		return ""
	}
	return u + "?" + RunFromParam + "=" + url.QueryEscape(id)
}
