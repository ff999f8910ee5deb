package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync/atomic"
	"time"

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

// waitBoth waits at most one heartbeat for status snapshots or invocation
// changes, whichever comes first. The hub's subscription has no ready
// channel, so its wait is cut short by cancelling its context when the
// invocation subscription signals. idle reports that nothing happened for a
// whole heartbeat, which the caller answers with a ping.
func waitBoth(ctx context.Context, heartbeat time.Duration, sub *domain.Subscription, isub *domain.InvocationSubscription) (statuses []domain.Status, invs []domain.Invocation, idle bool) {
	statuses, invs, _, idle = waitAll(ctx, heartbeat, sub, isub, nil)
	return statuses, invs, idle
}

// waitAll is waitBoth plus a settings-reload signal (nil for none);
// configChanged reports that it fired.
func waitAll(ctx context.Context, heartbeat time.Duration, sub *domain.Subscription, isub *domain.InvocationSubscription, config <-chan struct{}) (statuses []domain.Status, invs []domain.Invocation, configChanged bool, idle bool) {
	wctx, cancel := context.WithTimeout(ctx, heartbeat)
	defer cancel()
	var ready <-chan struct{}
	if isub != nil {
		ready = isub.Ready()
	}
	var fired atomic.Bool
	stop, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		select {
		case <-ready:
			cancel()
		case <-config:
			fired.Store(true)
			cancel()
		case <-stop:
		}
	}()
	statuses, err := sub.Next(wctx)
	// The watcher must be gone before fired is read, or a reload signal it
	// takes after this point would be lost.
	close(stop)
	<-exited
	if isub != nil {
		invs = isub.Drain()
	}
	configChanged = fired.Load()
	idle = errors.Is(err, context.DeadlineExceeded) && len(invs) == 0 && !configChanged
	return statuses, invs, configChanged, idle
}

// appendInvocationEvent writes one invocation as a JSON stream event; the
// id is the feed version.
func appendInvocationEvent(buf []byte, inv domain.Invocation) ([]byte, error) {
	data, err := json.Marshal(InvocationJSON(inv))
	if err != nil {
		return buf, err
	}
	buf = append(buf, "event: "+invocationEvent+"\nid: "...)
	buf = strconv.AppendUint(buf, inv.Version, 10)
	buf = append(buf, "\ndata: "...)
	buf = append(buf, data...)
	return append(buf, "\n\n"...), nil
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
