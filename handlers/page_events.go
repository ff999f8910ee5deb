package handlers

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// pageEvents streams the dashboard's out-of-band swaps: rendered HTML in
// the person's language, unlike the JSON stream of the API.
type pageEvents struct {
	hub       *domain.Hub
	prefs     *preferences
	heartbeat time.Duration
	done      <-chan struct{}
	now       func() time.Time
	// cards keeps the activity feed and open drawers' recent calls live
	// (invocation_events.go); nil shows no tool calls.
	cards *invocationFeed
	// config keeps the settings banner live (page_events.go's appendBanner);
	// nil (demo mode) shows none.
	config *domain.Reloader
	// logs keeps open drawers' log messages live (server_logs_events.go);
	// nil shows none.
	logs *serverLogsFeed
	// elicitations keeps open drawers' questions of no call live
	// (page_events_elicitations.go); nil shows none.
	elicitations *domain.Elicitations
	// charts tells the pictures when to redraw and gives tooltips their
	// last probes (chart_events.go); nil draws none.
	charts *charts
	// demo is how the process began, for the demo notice, which goes away
	// when a settings file replaces the demo.
	demo views.DemoProps
	// fragments renders each server's row and drawer header once for
	// every page in a language (page_render_cache.go).
	fragments pageRenderCache
}

// stream first sends the full current state, which replaces the header
// summary and the whole list so a page that reconnects heals from anything
// it missed. Then each coalesced batch becomes one event per server,
// swapping its row from that one snapshot, and the summary's counts. A batch
// that adds or removes a server sends the full state instead, since a
// per-server swap has no element to land on.
func (p *pageEvents) stream(c echo.Context) error {
	ctx, cancel := context.WithCancel(c.Request().Context())
	defer cancel()
	if p.done != nil {
		go func() {
			select {
			case <-p.done:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	choice := p.prefs.resolve(c)
	rctx := views.WithProbeSource(choice.context(ctx), p.charts.probeSource())
	look := fragmentLook{lang: choice.loc.Lang(), preset: choice.preset}

	sub := p.hub.Subscribe()
	defer sub.Close()
	isub := p.cards.subscribe()
	if isub != nil {
		defer isub.Close()
	}
	var reloads <-chan struct{}
	if p.config != nil {
		ch, stop := p.config.Subscribe()
		defer stop()
		reloads = ch
	}
	feed := p.cards.page(views.ParseCallsFilter(c.QueryParams()))
	// Subscribe queued every current snapshot; the full state below covers
	// them, and the version check skips them when they arrive.
	shown := map[string]domain.Status{}
	var counts views.GroupCounts // of shown, for the header summary
	for _, s := range p.hub.List() {
		shown[s.ServerName] = s
		counts.Add(s, 1)
	}
	logs, wake := p.logs.watch(ctx, reloads, shown)
	asks, wake := watchElicitations(ctx, p.elicitations, wake, shown)
	pics, wake := p.charts.watch(ctx, wake)

	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	// The first event also fills (or empties) the banner and dialog slots,
	// so a page that reconnects drops a banner or question that went away.
	var out, html bytes.Buffer
	approval := p.approvalProps(shown)
	first := []templ.Component{views.ApprovalDialog(approval)}
	if p.config != nil {
		first = append(first, p.banner())
	}
	first = append(first, views.DemoNotice(demoNotice(p.demo, p.config, true)))
	if err := p.appendFull(rctx, look, &out, &html, shown, first...); err != nil {
		return err
	}
	if err := feed.appendFull(rctx, &out, &html); err != nil {
		return err
	}
	for {
		// A wake that found nothing new (the subscription's first queued
		// snapshots, which the full state already showed) writes nothing.
		if out.Len() > 0 {
			if _, err := w.Write(out.Bytes()); err != nil {
				return nil // the client is gone
			}
			w.Flush()
			out.Reset()
		}

		batch, invs, woke, idle := waitAll(ctx, p.heartbeat, sub, isub, wake)
		if ctx.Err() != nil {
			return nil
		}
		if idle { // nothing happened for a heartbeat
			out.Write(ping)
			// A chart change held back by its once-a-second limit goes
			// out now rather than with the next event.
			pics.appendChanged(&out, shown, nil, p.now())
			continue
		}
		reloaded := logs.reloaded(asks.woke(pics.woke(woke)))
		if err := feed.appendChanges(rctx, &out, &html, invs); err != nil {
			return err
		}
		changed, setChanged, asked := merge(shown, &counts, batch)
		var err error
		if setChanged {
			err = p.appendFull(rctx, look, &out, &html, shown)
		} else {
			err = p.appendUpdates(rctx, look, &out, changed, counts)
		}
		if err != nil {
			return err
		}
		if err := logs.appendChanged(rctx, &out, &html, shown, p.now()); err != nil {
			return err
		}
		pics.appendChanged(&out, shown, invs, p.now())
		if err := asks.appendChanged(rctx, &out, &html, shown); err != nil {
			return err
		}
		if reloaded {
			demo := views.DemoNotice(demoNotice(p.demo, p.config, true))
			if err := appendHTMLEvent(rctx, &out, &html, sseEvent, templ.Join(p.banner(), demo)); err != nil {
				return err
			}
		}
		if !asked {
			continue // the dialog shows only servers awaiting approval, and none changed
		}
		if next := p.approvalProps(shown); !next.Equal(approval) {
			approval = next
			if err := appendHTMLEvent(rctx, &out, &html, sseEvent, views.ApprovalDialog(approval)); err != nil {
				return err
			}
		}
	}
}

// banner renders the settings banner's slot from the reloader's newest
// state: filled while an edit could not be applied, empty otherwise.
func (p *pageEvents) banner() templ.Component {
	st := p.config.State()
	return views.ConfigBanner(views.NewConfigBannerProps(&st, true))
}

// approvalProps is the approval dialog for what the page shows. The
// stream compares it between batches, so the dialog is swapped exactly
// when the first pending server, what it would run, or the count changes.
func (p *pageEvents) approvalProps(shown map[string]domain.Status) views.ApprovalProps {
	return views.NewApprovalProps(sortedList(shown), approveURL, rejectURL, true)
}

// sortedList returns the shown snapshots sorted by server name.
func sortedList(shown map[string]domain.Status) []domain.Status {
	list := make([]domain.Status, 0, len(shown))
	for _, s := range shown {
		list = append(list, s)
	}
	slices.SortFunc(list, func(a, b domain.Status) int { return strings.Compare(a.ServerName, b.ServerName) })
	return list
}

// merge applies a batch to the snapshots the page shows and to their
// counts. It returns the snapshots that are new to the page, whether a
// server appeared or disappeared, and whether a snapshot awaiting approval
// came or went (asked), the only change the approval dialog can follow.
// Snapshots the page already has (the subscription's initial list) are
// skipped.
func merge(shown map[string]domain.Status, counts *views.GroupCounts, batch []domain.Status) (changed []domain.Status, setChanged, asked bool) {
	for _, st := range batch {
		old, ok := shown[st.ServerName]
		if ok && st.Version <= old.Version {
			continue
		}
		if ok {
			counts.Add(old, -1)
			asked = asked || old.BlockedReason == domain.BlockedPending
		}
		if st.Phase == domain.PhaseDisposed {
			if ok {
				delete(shown, st.ServerName)
				setChanged = true
			}
			continue
		}
		if !ok {
			setChanged = true
		}
		counts.Add(st, 1)
		asked = asked || st.BlockedReason == domain.BlockedPending
		shown[st.ServerName] = st
		changed = append(changed, st)
	}
	return changed, setChanged, asked
}

// appendFull sends the full state; extra swaps ride in the same event.
func (p *pageEvents) appendFull(ctx context.Context, look fragmentLook, out, html *bytes.Buffer, shown map[string]domain.Status, extra ...templ.Component) error {
	list := sortedList(shown)
	full := append([]templ.Component{views.FullState(views.NewFullStateProps(list, p.now(), drawerURL))}, extra...)
	if err := appendHTMLEvent(ctx, out, html, sseEvent, templ.Join(full...)); err != nil {
		return err
	}
	for _, st := range list {
		if err := p.appendDrawerHeader(ctx, look, out, st); err != nil {
			return err
		}
	}
	return nil
}

// appendUpdates sends one event per changed server; the last also carries
// the header summary, counted over every server the page shows. Each
// event comes from the shared cache, so pages in one language render a
// transition once between them.
func (p *pageEvents) appendUpdates(ctx context.Context, look fragmentLook, out *bytes.Buffer, changed []domain.Status, counts views.GroupCounts) error {
	now := p.now()
	for i, st := range changed {
		key := look.key(fragmentRow, st)
		key.second = now.Unix()
		last := i == len(changed)-1
		if last {
			key.kind, key.summary = fragmentRowWithSummary, counts
		}
		ev, err := p.fragments.event(ctx, key, func() (string, templ.Component) {
			u := views.NewServerUpdateProps(st, now, drawerURL(st.ServerName))
			if last {
				sum := views.NewHeaderSummaryPropsFromCounts(counts, "")
				sum.OOB = true
				u.Summary = &sum
			}
			return sseEvent, views.ServerUpdate(u)
		})
		if err != nil {
			return err
		}
		out.Write(ev)
		if err := p.appendDrawerHeader(ctx, look, out, st); err != nil {
			return err
		}
	}
	return nil
}

// appendDrawerHeader appends st's drawer header and actions, rendered from
// the same snapshot as its chip and row, as the server's drawer event: an
// open drawer never offers the commands of a state its chip has left.
func (p *pageEvents) appendDrawerHeader(ctx context.Context, look fragmentLook, out *bytes.Buffer, st domain.Status) error {
	ev, err := p.fragments.event(ctx, look.key(fragmentDrawer, st), func() (string, templ.Component) {
		return views.DrawerEvent(st.ServerName), templ.Join(
			views.DrawerHeader(views.NewDrawerHeaderProps(st), true),
			views.DrawerActions(views.NewDrawerActionsProps(st, drawerURLs(st.ServerName)), true))
	})
	if err != nil {
		return err
	}
	out.Write(ev)
	return nil
}

// appendHTMLEvent renders c and appends it to out as one event, framed by
// appendSSE, which gives every line of HTML its own data line.
func appendHTMLEvent(ctx context.Context, out, html *bytes.Buffer, event string, c templ.Component) error {
	html.Reset()
	if err := c.Render(ctx, html); err != nil {
		return fmt.Errorf("render page event: %w", err)
	}
	out.Write(appendSSE(out.AvailableBuffer(), event, "", html.Bytes()))
	return nil
}
