package handlers

import (
	"bytes"
	"context"
	"sync/atomic"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// logsWatch keeps one page's log lists current. waitAll takes one extra
// signal, so the watch merges the settings-reload signal with the log
// messages' into wake and remembers which of them fired.
type logsWatch struct {
	feed   *serverLogsFeed
	wake   chan struct{}
	config atomic.Bool // the settings-reload signal fired
	logged atomic.Bool // log messages arrived
	sent   map[string]uint64
}

// watch starts merging config (nil for none) with the log messages'
// signal until ctx ends. It returns the channel to wait on in place of
// config; a nil feed watches nothing and returns config itself.
func (f *serverLogsFeed) watch(ctx context.Context, config <-chan struct{}, shown map[string]domain.Status) (*logsWatch, <-chan struct{}) {
	if f == nil {
		return nil, config
	}
	w := &logsWatch{feed: f, wake: make(chan struct{}, 1), sent: map[string]uint64{}}
	// The drawers the page opens render the lists as they are now.
	for name := range shown {
		w.sent[name] = f.logs.Seq(name)
	}
	logs, stop := f.logs.Subscribe()
	go relaySignals(ctx, config, logs, &w.config, &w.logged, w.wake, stop)
	return w, w.wake
}

// reloaded reports whether the settings-reload signal fired, given that
// waitAll said its signal did (woke).
func (w *logsWatch) reloaded(woke bool) bool {
	if w == nil {
		return woke
	}
	return w.config.Swap(false)
}

// appendChanged sends, as each server's drawer event, the log messages
// the page has not seen: only the new entries when the page's list holds
// every message before them, so a burst costs the new messages' markup
// and not the whole list's; the whole list when it holds none yet, or
// messages it missed were dropped meanwhile, or the server counts anew.
func (w *logsWatch) appendChanged(ctx context.Context, out, html *bytes.Buffer, shown map[string]domain.Status, now time.Time) error {
	if w == nil || !w.logged.Swap(false) {
		return nil
	}
	for name := range w.sent {
		if _, ok := shown[name]; !ok {
			delete(w.sent, name) // removed: a server of that name starts over
		}
	}
	for name := range shown {
		after := w.sent[name]
		entries, seq, whole := w.feed.logs.Since(name, after)
		if whole && len(entries) == 0 {
			continue
		}
		if whole && after > 0 {
			w.sent[name] = seq
			if err := appendHTMLEvent(ctx, out, html, views.DrawerEvent(name), views.LogAppend(views.NewLogAppendProps(name, entries, now))); err != nil {
				return err
			}
			continue
		}
		p, err := w.feed.props(name, now)
		if err != nil {
			continue // removed meanwhile; the next full state drops it
		}
		w.sent[name] = p.List.Seq
		if err := appendHTMLEvent(ctx, out, html, views.DrawerEvent(name), views.LogList(p.List, true)); err != nil {
			return err
		}
	}
	return nil
}
