package views

import (
	"time"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerHistoryProps is a server's history section in its drawer.
type DrawerHistoryProps struct {
	ID  string // empty draws nothing
	URL string // where the section redraws itself from
	// Loaded is set once the pictures are drawn; before that the section
	// is a heading that loads them as soon as the drawer shows it, so the
	// drawer never waits for the history's queries.
	Loaded bool
	// Event is the page event that says the server's history changed.
	Event   string
	Uptime  UptimeStripProps
	Latency LatencySparklineProps
}

// HistoryInput is what the drawer's history is drawn from: the server's
// state changes since the strip's window began (preceded by the one
// before), its probe samples and its calls in that window.
type HistoryInput struct {
	Server  string
	Changes []domain.StateChange
	Probes  []domain.ProbeSample
	Calls   []domain.CallTiming
	Now     time.Time
	URL     string
}

// NewDrawerHistoryProps draws the section; times are in now's zone.
func NewDrawerHistoryProps(in HistoryInput) DrawerHistoryProps {
	key := ServerKey(in.Server)
	start, _ := domain.UptimeWindow(in.Now)
	bars := domain.UptimeBars(in.Changes, in.Now)
	return DrawerHistoryProps{
		ID:      "drawer-history-" + key,
		Loaded:  true,
		URL:     in.URL,
		Event:   HistoryEvent(in.Server),
		Uptime:  NewUptimeStripProps(key, bars, domain.StateDurations(in.Changes, start, in.Now), in.Now.Location()),
		Latency: NewLatencySparklineProps(key, in.Probes, in.Calls, in.Now),
	}
}

// NewDrawerHistorySlot is the section before its pictures, for the
// server named name; an empty url (no history kept) draws nothing.
func NewDrawerHistorySlot(name, url string) DrawerHistoryProps {
	if url == "" {
		return DrawerHistoryProps{}
	}
	return DrawerHistoryProps{ID: "drawer-history-" + ServerKey(name), URL: url, Event: HistoryEvent(name)}
}

// HistoryEvent names the page event that tells an open drawer its
// server's history changed. It carries no HTML: only the drawer that
// shows the server asks for its pictures, so a page with fifty servers and
// no drawer open never pays for them.
func HistoryEvent(name string) string { return "history-" + ServerKey(name) }

// historyRefresh redraws the pictures when no event comes, so the strip
// moves on with the clock for a server whose history stands still.
const historyRefresh = "every 300s"

// reloadAttrs make the section load and redraw itself; none without a URL.
func (p DrawerHistoryProps) reloadAttrs() templ.Attributes {
	return reloadAttrs(p.URL, p.trigger())
}

// reloadAttrs are a picture's htmx attributes: fetch url on trigger and
// replace the picture with the answer.
func reloadAttrs(url, trigger string) templ.Attributes {
	if url == "" {
		return nil
	}
	return templ.Attributes{"hx-get": url, "hx-trigger": trigger, "hx-swap": "outerHTML"}
}

// trigger is the section's hx-trigger.
func (p DrawerHistoryProps) trigger() string {
	t := "sse:" + p.Event + " throttle:5s, " + historyRefresh
	if !p.Loaded {
		t = "load, " + t
	}
	return t
}
