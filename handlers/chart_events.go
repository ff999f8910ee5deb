package handlers

import (
	"bytes"
	"context"
	"sync/atomic"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// callsChartEvery spaces the calls chart's redraw signals on one page, so
// a burst of calls costs the page one count a second, not one per call.
const callsChartEvery = time.Second

// redrawData is the body of a redraw signal: the pictures fetch their own
// HTML, but an event without data is never dispatched by EventSource.
var redrawData = []byte("1")

// chartWatch tells one page when to redraw its pictures: an open drawer's
// history section when its server's history was written, and the calls
// chart when a call started or ended. Like elicitWatch it merges its
// signal into the one channel waitAll takes, passing on the one it wraps.
type chartWatch struct {
	ch      *charts
	sub     *domain.HistorySubscription // nil without history
	wake    chan struct{}
	inner   atomic.Bool // the wrapped signal fired
	written atomic.Bool // some server's history was written

	// unfinished are the calls seen running, so a progress update (same
	// call, still running) does not count as a change of the chart.
	unfinished map[string]struct{}
	pending    bool      // the chart changed and was not told yet
	told       time.Time // when the chart was last told
}

// watch starts merging inner with the history's signal until ctx ends;
// it returns the channel to wait on in place of inner. A nil ch watches
// nothing and returns inner itself.
func (ch *charts) watch(ctx context.Context, inner <-chan struct{}) (*chartWatch, <-chan struct{}) {
	if ch == nil || (ch.history == nil && ch.stats == nil) {
		return nil, inner
	}
	w := &chartWatch{ch: ch, wake: make(chan struct{}, 1), unfinished: map[string]struct{}{}}
	var own <-chan struct{}
	stop := func() {}
	if ch.history != nil {
		w.sub = ch.history.Subscribe()
		own, stop = w.sub.Ready(), w.sub.Close
	}
	go relaySignals(ctx, inner, own, &w.inner, &w.written, w.wake, stop)
	return w, w.wake
}

// probeSource is what tooltips draw their last probes from; nil without
// history.
func (ch *charts) probeSource() views.ProbeSource {
	if ch == nil || ch.history == nil {
		return nil
	}
	return ch.history.RecentProbes
}

// woke reports whether the wrapped signal fired, given that waitAll said
// the watch's did (woke).
func (w *chartWatch) woke(woke bool) bool {
	if w == nil {
		return woke
	}
	return w.inner.Swap(false)
}

// appendChanged appends the redraw signals due: one per shown server
// whose history was written (only its open drawer listens), and the calls
// chart's when invs started or ended a call and a second has passed since
// the last.
func (w *chartWatch) appendChanged(out *bytes.Buffer, shown map[string]domain.Status, invs []domain.Invocation, now time.Time) {
	if w == nil {
		return
	}
	if w.sub != nil && w.written.Swap(false) {
		for _, name := range w.sub.Drain() {
			if _, ok := shown[name]; ok {
				out.Write(appendSSE(out.AvailableBuffer(), views.HistoryEvent(name), "", redrawData))
			}
		}
	}
	if w.ch.stats == nil {
		return
	}
	for _, inv := range invs {
		_, seen := w.unfinished[inv.ID]
		if inv.EndedAt.IsZero() {
			if !seen {
				w.unfinished[inv.ID] = struct{}{}
				w.pending = true
			}
			continue
		}
		delete(w.unfinished, inv.ID)
		w.pending = true
	}
	if w.pending && now.Sub(w.told) >= callsChartEvery {
		out.Write(appendSSE(out.AvailableBuffer(), views.CallsChartEvent, "", redrawData))
		w.pending, w.told = false, now
	}
}
