package handlers

import (
	"bytes"
	"context"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// invocationEvent names the JSON stream's event carrying an invocation.
const invocationEvent = "invocation"

// invocationFeed is what the event streams need to follow the scope's
// invocations; nil when Options.Invocations is nil.
type invocationFeed struct {
	svc   *domain.Invocations
	scope domain.Scope
	cards *cardRenderer
}

func newInvocationFeed(opts Options, cards *cardRenderer) *invocationFeed {
	if opts.Invocations == nil {
		return nil
	}
	return &invocationFeed{svc: opts.Invocations, scope: opts.Scope, cards: cards}
}

// subscribe returns the scope's invocation changes, or nil on a nil feed.
func (f *invocationFeed) subscribe() *domain.InvocationSubscription {
	if f == nil {
		return nil
	}
	return f.svc.Feed().Subscribe(f.scope)
}

// appendInvocationEvent writes one invocation as a JSON stream event; the
// id is the feed version.
func appendInvocationEvent(buf []byte, inv domain.Invocation) ([]byte, error) {
	return appendJSONEvent(buf, invocationEvent, inv.Version, InvocationJSON(inv))
}

// whole returns inv with its whole result when the feed carried only a
// card's preview of it: an API client reads the result from the stream,
// so it is read from the store for those streams only, not for every page.
// Should the read fail, the preview is sent, as the stored call may be
// gone (pruned) by now.
func (f *invocationFeed) whole(ctx context.Context, inv domain.Invocation) domain.Invocation {
	if f == nil || !inv.ResultPreviewed {
		return inv
	}
	stored, err := f.svc.Get(ctx, f.scope, inv.ID)
	if err != nil || stored.Version < inv.Version {
		return inv
	}
	return stored
}

// pageCards keeps one page's calls current: the rows its list holds (by
// version), so a change replaces a row it has and inserts one it lacks
// that matches the page's filters, and the cards open drawers hold.
type pageCards struct {
	feed   *invocationFeed
	filter views.CallsFilter
	shown  map[string]uint64 // rows in the page's list
	drawn  map[string]uint64 // calls drawers may hold, to replace rather than insert
	// floor is the oldest row the stream sent when more were left for
	// "Older calls"; nil when the page got every matching call. A change
	// of an unknown call at or below it belongs to a row the person may
	// have loaded further down, so it replaces that row where it is and
	// never lands at the top.
	floor *domain.Invocation
}

func (f *invocationFeed) page(filter views.CallsFilter) *pageCards {
	if f == nil {
		return nil
	}
	return &pageCards{feed: f, filter: filter, shown: map[string]uint64{}, drawn: map[string]uint64{}}
}

// appendFull replaces the page's list with the newest rows that match
// its filters. The subscription is taken before the listing, so a change
// in between arrives afterwards and is applied by version.
func (p *pageCards) appendFull(ctx context.Context, out, html *bytes.Buffer) error {
	if p == nil {
		return nil
	}
	invs, err := p.feed.svc.List(ctx, p.feed.scope, p.filter.Domain(views.CallsLimit+1))
	if err != nil {
		return err
	}
	list := views.CallsListProps{OOB: true}
	if len(invs) > views.CallsLimit {
		invs = invs[:views.CallsLimit]
		list.OlderURL = olderCallsURL(p.filter, invs[len(invs)-1].ID)
		p.floor = &invs[len(invs)-1]
	}
	for _, inv := range invs {
		p.shown[inv.ID] = inv.Version
		p.drawn[inv.ID] = inv.Version
	}
	if p.filter != (views.CallsFilter{}) {
		// Drawers list a server's newest calls whatever the page's
		// filters, so they learn the newest calls apart.
		all, err := p.feed.svc.List(ctx, p.feed.scope, domain.InvocationFilter{Limit: views.CallsLimit, Preview: true})
		if err != nil {
			return err
		}
		for _, inv := range all {
			p.drawn[inv.ID] = inv.Version
		}
	}
	list.Rows = callRows(invs)
	return appendHTMLEvent(ctx, out, html, sseEvent, views.CallsList(list))
}

// appendChanges swaps each changed call's row in the list (or inserts it
// when it matches the filters), its card where one is open in the list,
// and its card where that server's drawer is open.
func (p *pageCards) appendChanges(ctx context.Context, out, html *bytes.Buffer, invs []domain.Invocation) error {
	if p == nil {
		return nil
	}
	for _, inv := range invs {
		if err := p.appendRow(ctx, out, html, inv); err != nil {
			return err
		}
		v, known := p.drawn[inv.ID]
		if known && inv.Version <= v {
			continue
		}
		p.drawn[inv.ID] = inv.Version
		drawer := p.feed.cards.props(inv, views.CardInDrawer, known)
		dc := views.InvocationCard(drawer)
		if !known {
			dc = views.CardInsert(views.CardInsertProps{ListID: views.DrawerFeedListID(inv.ServerName), Card: drawer})
		}
		if err := appendHTMLEvent(ctx, out, html, views.DrawerEvent(inv.ServerName), dc); err != nil {
			return err
		}
	}
	return nil
}

// appendRow replaces inv's row, or inserts it at the top when the list
// lacks it and it matches the filters; then it sends the open card's new
// content on the call's own event, which only an open card listens to.
func (p *pageCards) appendRow(ctx context.Context, out, html *bytes.Buffer, inv domain.Invocation) error {
	v, known := p.shown[inv.ID]
	switch {
	case known && inv.Version <= v:
		return nil
	case !known && !p.filter.Matches(inv):
		return nil
	}
	p.shown[inv.ID] = inv.Version
	row := views.CallRow(callRow(inv, true))
	if !known && !p.belowFloor(inv) {
		row = views.CallInsert(callRow(inv, false))
	}
	if err := appendHTMLEvent(ctx, out, html, sseEvent, row); err != nil {
		return err
	}
	return appendHTMLEvent(ctx, out, html, views.CallEvent(inv.ID), views.CallCardBody(p.feed.cards.callCard(inv)))
}

// belowFloor reports whether inv sorts at or after the oldest row the
// stream sent (newest first, by start time then id), where only "Older
// calls" could have put it on the page.
func (p *pageCards) belowFloor(inv domain.Invocation) bool {
	if p.floor == nil {
		return false
	}
	f := p.floor
	return inv.StartedAt.Before(f.StartedAt) || (inv.StartedAt.Equal(f.StartedAt) && inv.ID <= f.ID)
}
