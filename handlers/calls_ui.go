package handlers

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// callsSection is the page's Calls section for the filters in the page's
// address, and the page stream's address carrying the same filters, so
// the stream fills and keeps the list the person asked for.
func callsSection(fleet *domain.Fleet, q url.Values) (views.CallsProps, string) {
	f := views.ParseCallsFilter(q)
	events := PathPageEvents
	if enc := f.Query().Encode(); enc != "" {
		events += "?" + enc
	}
	p := views.NewCallsProps(f, fleet.Names(), PathDashboard)
	p.Chart = callsChartSlot(f) // charts.go
	return p, events
}

// olderCalls answers "Older calls": the next rows past ?before= that match
// the page's filters, and the button for the ones past those.
func (u *invocationUI) olderCalls(c echo.Context) error {
	q := c.QueryParams()
	f := views.ParseCallsFilter(q)
	df := f.Domain(views.CallsLimit)
	df.Before = q.Get("before")
	invs, next, err := listPage(c, u.svc, u.scope, df)
	if err != nil {
		return err
	}
	p := views.CallsListProps{Rows: callRows(invs)}
	if next != nil {
		p.OlderURL = olderCallsURL(f, *next)
	}
	return u.render(c, views.CallsOlder(p))
}

// callCard answers a row's click: the call's card for the list, opening
// with its error when it failed, listening for its own changes.
func (u *invocationUI) callCard(c echo.Context) error {
	inv, err := u.svc.Get(c.Request().Context(), u.scope, c.Param(idParam))
	if err != nil {
		return err
	}
	return u.render(c, views.CallCard(u.cards.callCard(inv)))
}

// callCard builds the list's card of inv.
func (r *cardRenderer) callCard(inv domain.Invocation) views.CallCardProps {
	return views.NewCallCardProps(inv, r.props(inv, views.CallCardPlace, false))
}

// callRows builds the list's rows, each pointing at its card.
func callRows(invs []domain.Invocation) []views.CallRowProps {
	rows := make([]views.CallRowProps, 0, len(invs))
	for _, inv := range invs {
		rows = append(rows, callRow(inv, false))
	}
	return rows
}

func callRow(inv domain.Invocation, oob bool) views.CallRowProps {
	r := views.NewCallRowProps(inv, InvocationPath(PathUICallCard, inv.ID))
	r.OOB = oob
	return r
}

// olderCallsURL is where "Older calls" loads the rows past before.
func olderCallsURL(f views.CallsFilter, before string) string {
	q := f.Query()
	q.Set("before", before)
	return PathUICalls + "?" + q.Encode()
}
