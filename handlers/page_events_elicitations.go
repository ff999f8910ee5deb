package handlers

import (
	"bytes"
	"context"
	"sync/atomic"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// elicitWatch keeps one page's drawer lists of questions of no call
// current. Like logsWatch it merges its signal into the one channel
// waitAll takes, passing on the signal it wraps (inner) and remembering
// which of them fired.
type elicitWatch struct {
	svc   *domain.Elicitations
	wake  chan struct{}
	inner atomic.Bool // the wrapped signal fired
	asked atomic.Bool // the questions changed
	// sent is, per server, the set of questions the page was last sent
	// (views.ElicitationsShown): a drawer that opens renders the list
	// then, and each change after that comes as an event.
	sent map[string]string
}

// watchElicitations starts merging inner (nil for none) with svc's signal
// until ctx ends. It returns the channel to wait on in place of inner; a
// nil svc watches nothing and returns inner itself.
func watchElicitations(ctx context.Context, svc *domain.Elicitations, inner <-chan struct{}, shown map[string]domain.Status) (*elicitWatch, <-chan struct{}) {
	if svc == nil {
		return nil, inner
	}
	w := &elicitWatch{svc: svc, wake: make(chan struct{}, 1), sent: map[string]string{}}
	asked, stop := svc.Subscribe()
	for name := range shown {
		w.sent[name] = views.ElicitationsShown(svc.ForServer(name))
	}
	go relaySignals(ctx, inner, asked, &w.inner, &w.asked, w.wake, stop)
	return w, w.wake
}

// woke reports whether the wrapped signal fired, given that waitAll said
// the watch's did (woke); the caller passes it on to whoever wrapped it.
func (w *elicitWatch) woke(woke bool) bool {
	if w == nil {
		return woke
	}
	return w.inner.Swap(false)
}

// appendChanged sends, as each server's drawer event, the list of every
// server whose questions of no call are not the ones the page was sent.
// Only an open drawer listens, and the forms still waiting in it are
// preserved, so what a person is typing stays.
func (w *elicitWatch) appendChanged(ctx context.Context, out, html *bytes.Buffer, shown map[string]domain.Status) error {
	if w == nil || !w.asked.Swap(false) {
		return nil
	}
	for name := range shown {
		es := w.svc.ForServer(name)
		ids := views.ElicitationsShown(es)
		if ids == w.sent[name] {
			continue
		}
		w.sent[name] = ids
		p := views.NewDrawerElicitationsProps(es, ElicitationPath).For(name)
		if err := appendHTMLEvent(ctx, out, html, views.DrawerEvent(name), views.DrawerElicitationsLive(p)); err != nil {
			return err
		}
	}
	return nil
}
