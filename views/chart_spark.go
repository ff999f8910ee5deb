package views

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Sparkline geometry: every picture is drawn in a fixed viewBox that the
// stylesheet stretches to its box (preserveAspectRatio="none"), and lines
// keep their width with vector-effect="non-scaling-stroke", so the numbers
// here never depend on the page's width.
const (
	sparkWidth   = 960 // ten units per quarter-hour slot of a day
	sparkHeight  = 40
	sparkPad     = 3 // keeps the line's stroke inside the box at 0 and at the top
	tipSparkW    = 100
	tipSparkH    = 24
	chartBarGap  = 2
	callsChartW  = 600 // ten units per minute of an hour
	callsChartH  = 80
	uptimeBarTop = 100 // a bar's full height in its own viewBox
)

// sparkPath draws values as a line over a w×h box, one point per value
// at the centre of its slot, on a scale from 0 to the largest value so a
// small jitter never looks like a cliff. NaN values are gaps: the line
// stops and starts again after them; a point between two gaps is drawn as
// a dot (a tiny segment its round caps make visible).
func sparkPath(values []float64, w, h float64) string {
	top := 0.0
	for _, v := range values {
		if !math.IsNaN(v) {
			top = max(top, v)
		}
	}
	if top <= 0 {
		top = 1
	}
	slot := w / float64(len(values))
	var b strings.Builder
	dot := " h" + coord(max(w/240, 0.5)) // a lone point's length: a dot at any width
	run := 0                             // points in the segment being drawn
	end := func() {
		if run == 1 {
			b.WriteString(dot)
		}
		run = 0
	}
	for i, v := range values {
		if math.IsNaN(v) {
			end()
			continue
		}
		x := (float64(i) + 0.5) * slot
		y := h - sparkPad - v/top*(h-2*sparkPad)
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if run > 0 {
			b.WriteString("L")
		} else {
			b.WriteString("M")
		}
		b.WriteString(coord(x))
		b.WriteByte(' ')
		b.WriteString(coord(y))
		run++
	}
	end()
	return b.String()
}

// coord prints a coordinate with at most one decimal.
func coord(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// msText is a duration in milliseconds as the tooltip's latency shows it,
// one decimal below 10 ms, for MsgText to write in the reader's language.
func msText(d time.Duration) Decimal {
	ms := float64(d.Microseconds()) / 1000
	if ms < 10 {
		return Decimal{Value: ms, Digits: 1, Upto: true}
	}
	return Decimal{Value: ms, Upto: true}
}

// clockText is a time of day in the zone of the page's clock: the
// dashboard runs on the person's own machine, so its zone is theirs.
func clockText(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("15:04")
}

// clockSecondsText is clockText with seconds, for changes inside a bar.
func clockSecondsText(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("15:04:05")
}
