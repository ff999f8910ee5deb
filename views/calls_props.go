package views

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/switchboard-mcp/switchboard/domain"
)

// CallsLimit is how many rows the page's call list starts with and how
// many each "Older calls" adds: a hundred ~36 px rows keep the page short
// however many calls the store holds.
const CallsLimit = 100

// CallsListID is the page's call list, the target of live inserts.
const CallsListID = "calls-list"

// CallsOlderID is the slot of the "Older calls" button, swapped whole
// when the list is filled again.
const CallsOlderID = "calls-older-slot"

// CallErrorRunes bounds the error text a row shows; the card has it all.
const CallErrorRunes = 240

// CallCardPlace is where a card opened from the call list is drawn: its
// own id namespace, apart from the drawer's cards of the same call.
const CallCardPlace = CardInHistory

// CallItemID is the list item that holds a call's row and its card slot.
func CallItemID(id string) string { return "call-" + id }

// CallRowID is a call's row, the target of its live replacements.
func CallRowID(id string) string { return "callrow-" + id }

// CallSlotID is where a call's card opens under its row.
func CallSlotID(id string) string { return "callcard-" + id }

// CallEvent is the page stream's event carrying a call's card in the list
// place; only an open card listens to it.
func CallEvent(id string) string { return "call-" + id }

// CallRowProps is one row of the call list: what a person scans for.
type CallRowProps struct {
	ID      string
	Status  string
	Badge   Message
	Tool    string
	Server  string
	Source  *InvocationSourceProps
	Started time.Time
	// Duration is set once the call ended.
	Duration *Message
	// Error is the failed call's message, cut to CallErrorRunes; ErrorMessage
	// replaces it for an error Switchboard words itself.
	Error        string
	ErrorMessage *Message
	CardURL      string
	// Version is the snapshot's version; an open card older than its row
	// loads again.
	Version uint64
	OOB     bool // replace the row shown, out of band
}

// Failed reports whether the row shows an error.
func (p CallRowProps) Failed() bool { return p.Error != "" || p.ErrorMessage != nil }

// NewCallRowProps builds a row from an invocation snapshot.
func NewCallRowProps(inv domain.Invocation, cardURL string) CallRowProps {
	badge := statusBadges[inv.Status]
	if badge == "" {
		badge = "InvocationPending"
	}
	p := CallRowProps{
		ID: inv.ID, Status: string(inv.Status), Badge: Message{ID: badge}, Tool: inv.Tool,
		Server: inv.ServerName, Source: NewInvocationSourceProps(inv), Started: inv.StartedAt,
		CardURL: cardURL, Version: inv.Version,
	}
	if inv.Status.Final() && !inv.EndedAt.IsZero() {
		d := DurationMessage(inv.EndedAt.Sub(inv.StartedAt))
		p.Duration = &d
	}
	if inv.Status == domain.InvocationError {
		if m, ok := ErrorCodeMessage(inv.ErrorCode); ok {
			p.ErrorMessage = &m
		} else {
			p.Error = clip(CallErrorText(inv), CallErrorRunes)
		}
	}
	return p
}

// CallErrorBytes bounds the error a failed call's card opens with; the
// whole result stays in the card's Result section, within its own caps.
const CallErrorBytes = 16 << 10

// CallErrorText is what went wrong with a failed call, in the server's or
// Switchboard's words: the stored error, else the text of a result the
// tool marked isError; at most CallErrorBytes of it.
func CallErrorText(inv domain.Invocation) string {
	if inv.Error != "" {
		return cutBytes(inv.Error, CallErrorBytes)
	}
	var b strings.Builder
	for _, raw := range domain.ParseResult(inv.Result).Content {
		var it struct{ Type, Text string }
		if json.Unmarshal(raw, &it) == nil && it.Type == "text" && it.Text != "" {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(it.Text)
			if b.Len() > CallErrorBytes {
				break
			}
		}
	}
	return cutBytes(b.String(), CallErrorBytes)
}

// cutBytes cuts s to at most n bytes on a rune boundary, marking a cut
// with an ellipsis.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// clip cuts s to n runes on one line, marking the cut with an ellipsis.
// It reads no more than the n runes it may keep, whatever s's length.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(cutBytes(s, 4*n+utf8.UTFMax)), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// CallsProps is the page's Calls section: the filters in force, what they
// can be set to, and the chart above the list. The rows arrive on the
// page stream's first event.
type CallsProps struct {
	Filter   CallsFilter
	Servers  []string
	Statuses []string
	Sources  []string
	// Action is the page's own address, where the filter form goes.
	Action string
	// ClearRange is the page's address with the from/to range dropped;
	// empty when no range is set.
	ClearRange string
	// Chart is the calls-per-minute chart; the charts code fills it in the
	// page handler, and its zero value draws nothing.
	Chart CallsChartProps
}

// CallStatuses are the statuses the filter offers, in a call's order.
var CallStatuses = []string{
	string(domain.InvocationPending), string(domain.InvocationAwaitingApproval), string(domain.InvocationRunning),
	string(domain.InvocationSuccess), string(domain.InvocationError), string(domain.InvocationCancelled),
	string(domain.InvocationDenied),
}

// CallSources are the sources the filter offers.
var CallSources = []string{domain.SourceDashboard, domain.SourceAPI, domain.SourceGateway}

// NewCallsProps builds the section for the page at base (its path) with f.
func NewCallsProps(f CallsFilter, servers []string, base string) CallsProps {
	p := CallsProps{Filter: f, Servers: servers, Statuses: CallStatuses, Sources: CallSources, Action: base}
	if !f.From.IsZero() || !f.To.IsZero() {
		g := f
		g.From, g.To = time.Time{}, time.Time{}
		p.ClearRange = g.URL(base)
	}
	return p
}

// HasRange reports whether the list is narrowed to a time range.
func (p CallsProps) HasRange() bool { return p.ClearRange != "" }

// CallsListProps is a run of rows: the whole list (the stream's first
// event, OOB) or a page of older ones, with the next "Older" link.
type CallsListProps struct {
	Rows     []CallRowProps
	OlderURL string // empty when nothing older matches
	OOB      bool
}

// CallCardProps is a card opened from the list: the error first when the
// call failed, then the card, listening for its own live changes.
type CallCardProps struct {
	ID           string
	Error        string
	ErrorMessage *Message
	Card         InvocationCardProps
}

// NewCallCardProps wraps card for the list; inv says whether it failed.
func NewCallCardProps(inv domain.Invocation, card InvocationCardProps) CallCardProps {
	p := CallCardProps{ID: inv.ID, Card: card}
	if inv.Status == domain.InvocationError {
		// The list opens a failed call with its error, so its result is
		// open too, however the card reached the page.
		p.Card.ResultOpen = true
		if m, ok := ErrorCodeMessage(inv.ErrorCode); ok {
			p.ErrorMessage = &m
		} else {
			p.Error = CallErrorText(inv)
		}
	}
	return p
}

// Failed reports whether the card opens with an error.
func (p CallCardProps) Failed() bool { return p.Error != "" || p.ErrorMessage != nil }

// callsNewSentinel stands for the count in the "N new calls" texts the
// page is given, one per plural category (locales.PluralTemplates);
// calls.js puts the real count in its place.
const callsNewSentinel = "{count}"

// callSourceNames are the filter's words for each source.
var callSourceNames = map[string]string{
	domain.SourceDashboard: "CallsSourceDashboard",
	domain.SourceAPI:       "CallsSourceAPI",
	domain.SourceGateway:   "CallsSourceGateway",
}

// isMinute reports whether f's range is exactly one minute, as a chart
// bar sets it.
func isMinute(f CallsFilter) bool {
	return !f.From.IsZero() && f.To.Sub(f.From) == time.Minute
}

// rangeLabel words the kind of time range f holds.
func rangeLabel(f CallsFilter) string {
	switch {
	case isMinute(f):
		return "CallsRangeMinute"
	case f.From.IsZero():
		return "CallsRangeUntil"
	case f.To.IsZero():
		return "CallsRangeSince"
	}
	return "CallsRangeBetween"
}

func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func unixMilli(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// VersionAttr is Version as the row's data-version.
func (p CallRowProps) VersionAttr() string { return strconv.FormatUint(p.Version, 10) }
