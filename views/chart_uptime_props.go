package views

import (
	"math"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
)

// UptimeStripProps is a server's last 24 hours as domain.UptimeSlots bars,
// each coloured, sized and labelled by the worst state in its quarter
// hour. The colour is never alone: a bar's height says the state too, the
// legend names each, and every bar carries its state and changes as text.
type UptimeStripProps struct {
	ID      string
	Bars    []UptimeBarProps
	Legend  []UptimeLegendProps
	Summary Message
}

// UptimeBarProps is one quarter hour.
type UptimeBarProps struct {
	// ID stays the same across redraws for the same quarter hour, so htmx
	// gives focus back to the bar a person was reading.
	ID       string
	State    string // connected, connecting, error, disabled or unknown: the CSS class
	StateID  string // the state's name
	From, To string // "14:00", "14:15"
	Y, H     string // the rect inside a 0 0 10 100 box
	Changes  []UptimeChangeProps
	// Hidden changes of a flapping quarter hour are left out between the
	// first and last few (at index HiddenAt), so a bar stays short to read
	// and the drawer small to redraw.
	Hidden, HiddenAt int
	// Focusable bars are those with something to read: a change, or a
	// state other than connected. A healthy day costs no tab stops.
	Focusable bool
}

// UptimeChangeProps is one transition inside a bar.
type UptimeChangeProps struct {
	Time    string // "14:03:12"
	StateID string
	Error   string // redacted by the domain; escaped by templ
}

// UptimeLegendProps names one state present in the strip and how many
// bars it is the worst state of.
type UptimeLegendProps struct {
	State   string
	StateID string
	Count   int
}

// A bar lists at most the first and last uptimeChangesShown of its
// changes, each error cut to uptimeErrorRunes (the whole text is in the
// server's logs and the API's status).
const (
	uptimeChangesShown = 3
	uptimeErrorRunes   = 200
)

// cutRunes returns s cut to at most n runes, with an ellipsis when cut.
func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// uptimeOrder is the legend's order: worst first.
var uptimeOrder = []string{"error", "connecting", "disabled", "connected", "unknown"}

// uptimeHeights are the bars' heights out of uptimeBarTop, so a
// greyscale print or a colour-blind eye still tells them apart: an error
// towers, a healthy bar is shorter, a missing one is a stub.
var uptimeHeights = map[string]int{"error": 100, "connecting": 80, "connected": 60, "disabled": 35, "unknown": 12}

// NewUptimeStripProps draws bars (domain.UptimeBars) for the server
// named key, with times in loc. durations (domain.StateDurations) give the
// summary's share of time connected.
func NewUptimeStripProps(key string, bars []domain.UptimeBar, durations map[domain.State]time.Duration, loc *time.Location) UptimeStripProps {
	p := UptimeStripProps{ID: "uptime-" + key, Bars: make([]UptimeBarProps, len(bars))}
	counts := map[string]int{}
	for i, b := range bars {
		st := uptimeState(b.Worst)
		counts[st]++
		h := uptimeHeights[st]
		bp := UptimeBarProps{
			ID:      "ub-" + key + "-" + strconv.FormatInt(b.Start.Unix(), 10),
			State:   st,
			StateID: uptimeStateID(st),
			From:    clockText(b.Start, loc),
			To:      clockText(b.End, loc),
			Y:       strconv.Itoa(uptimeBarTop - h),
			H:       strconv.Itoa(h),
		}
		shown := b.Changes
		if n := len(shown); n > 2*uptimeChangesShown {
			bp.Hidden, bp.HiddenAt = n-2*uptimeChangesShown, uptimeChangesShown
			shown = append(shown[:uptimeChangesShown:uptimeChangesShown], shown[n-uptimeChangesShown:]...)
		}
		for _, c := range shown {
			bp.Changes = append(bp.Changes, UptimeChangeProps{
				Time:    clockSecondsText(c.At, loc),
				StateID: uptimeStateID(uptimeState(c.Known())),
				Error:   cutRunes(c.Error, uptimeErrorRunes),
			})
		}
		bp.Focusable = len(bp.Changes) > 0 || (st != "connected" && st != "unknown")
		p.Bars[i] = bp
	}
	for _, st := range uptimeOrder {
		if counts[st] > 0 {
			p.Legend = append(p.Legend, UptimeLegendProps{State: st, StateID: uptimeStateID(st), Count: counts[st]})
		}
	}
	p.Summary = uptimeSummary(durations)
	return p
}

// uptimeSummary is the share of recorded time spent connected, rounded
// down to one decimal so 99.96 % never reads as a perfect 100.
func uptimeSummary(durations map[domain.State]time.Duration) Message {
	var total time.Duration
	for _, d := range durations {
		total += d
	}
	if total <= 0 {
		return Message{ID: "ChartUptimeNoData"}
	}
	share := float64(durations[domain.StateConnected]) / float64(total) * 100
	share = math.Floor(share*10) / 10
	return Message{ID: "ChartUptimeSummary", Data: map[string]any{"Percent": Decimal{Value: share, Digits: 1, Upto: true}}}
}

// uptimeState names a bar's state for CSS; unknown for no history.
func uptimeState(s domain.State) string {
	switch s {
	case domain.StateConnected, domain.StateConnecting, domain.StateError, domain.StateDisabled:
		return string(s)
	}
	return "unknown"
}

// uptimeStateID is the message id of a state's name in the charts.
func uptimeStateID(st string) string {
	switch st {
	case "connected":
		return "ChartStateConnected"
	case "connecting":
		return "ChartStateConnecting"
	case "error":
		return "ChartStateError"
	case "disabled":
		return "ChartStateDisabled"
	}
	return "ChartStateUnknown"
}

// focusAttrs put a bar worth reading in the tab order.
func (b UptimeBarProps) focusAttrs() templ.Attributes {
	if !b.Focusable {
		return nil
	}
	return templ.Attributes{"tabindex": "0"}
}
