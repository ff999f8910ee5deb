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

// pageCards keeps one page's feed current: which cards the page holds (by
// version), so a change replaces a card it has and inserts one it lacks.
type pageCards struct {
	feed  *invocationFeed
	shown map[string]uint64
}

func (f *invocationFeed) page() *pageCards {
	if f == nil {
		return nil
	}
	return &pageCards{feed: f, shown: map[string]uint64{}}
}

// appendFull replaces the page's feed with the scope's newest cards. The
// subscription is taken before the listing, so a change in between
// arrives afterwards and is applied by version.
func (p *pageCards) appendFull(ctx context.Context, out, html *bytes.Buffer) error {
	if p == nil {
		return nil
	}
	invs, err := p.feed.svc.List(ctx, p.feed.scope, domain.InvocationFilter{Limit: views.FeedLimit})
	if err != nil {
		return err
	}
	if len(invs) > views.FeedLimit {
		invs = invs[:views.FeedLimit]
	}
	for _, inv := range invs {
		p.shown[inv.ID] = inv.Version
	}
	list := views.FeedProps{Cards: p.feed.cards.list(invs, views.CardInFeed), OOB: true}
	return appendHTMLEvent(ctx, out, html, sseEvent, views.FeedList(list))
}

// appendChanges swaps each changed card in the feed and, when that
// server's drawer is open, in the drawer.
func (p *pageCards) appendChanges(ctx context.Context, out, html *bytes.Buffer, invs []domain.Invocation) error {
	if p == nil {
		return nil
	}
	for _, inv := range invs {
		v, known := p.shown[inv.ID]
		if known && inv.Version <= v {
			continue
		}
		p.shown[inv.ID] = inv.Version
		feed := p.feed.cards.props(inv, views.CardInFeed, known)
		drawer := p.feed.cards.props(inv, views.CardInDrawer, known)
		var fc, dc = views.InvocationCard(feed), views.InvocationCard(drawer)
		if !known {
			fc = views.CardInsert(views.CardInsertProps{ListID: views.FeedListID, Card: feed})
			dc = views.CardInsert(views.CardInsertProps{ListID: views.DrawerFeedListID(inv.ServerName), Card: drawer})
		}
		if err := appendHTMLEvent(ctx, out, html, sseEvent, fc); err != nil {
			return err
		}
		if err := appendHTMLEvent(ctx, out, html, views.DrawerEvent(inv.ServerName), dc); err != nil {
			return err
		}
	}
	return nil
}
