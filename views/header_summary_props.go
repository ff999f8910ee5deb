package views

import (
	"iter"
	"slices"
	"strconv"

	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
)

// SummaryCount is one count of the header summary, a link that filters
// the server list to its group ("" is every server).
type SummaryCount struct {
	Group   string
	Count   int
	Label   Message // "9 servers", "1 failing"
	Href    string
	Current bool // the list is filtered to this group now
}

// ID is the link's element id; the page keeps focus on it across swaps.
func (c SummaryCount) ID() string {
	if c.Group == "" {
		return "summary-all"
	}
	return "summary-" + c.Group
}

// CountText is the bare number, shown beside the dot on narrow screens.
func (c SummaryCount) CountText() string { return strconv.Itoa(c.Count) }

// currentAttrs marks the link of the filter in force; aria-current needs
// the value "true", since an empty one means false.
func (c SummaryCount) currentAttrs() templ.Attributes {
	if !c.Current {
		return nil
	}
	return templ.Attributes{"aria-current": "true"}
}

// TestID is the link's data-testid.
func (c SummaryCount) TestID() string { return c.ID() }

// DotClass is the state dot drawn beside the number on narrow screens,
// where the words give way to shapes; the total has none.
func (c SummaryCount) DotClass() string {
	switch c.Group {
	case GroupFailing:
		return "dot dot-error"
	case GroupSignIn:
		return "dot dot-sign_in"
	case GroupStarting:
		return "dot dot-connecting"
	case GroupConnected:
		return "dot dot-connected"
	case GroupDisabled:
		return "dot dot-disabled"
	}
	return ""
}

// HeaderSummaryProps is the header's one line about the fleet: "9 servers
// · 8 connected · 1 failing". The event stream swaps it with every change.
type HeaderSummaryProps struct {
	Counts []SummaryCount // the total first
	OOB    bool
}

// alwaysCounted are the groups the summary names even at zero, so "0
// failing" says all is well; the others appear only when they happen.
var alwaysCounted = map[string]bool{GroupConnected: true, GroupFailing: true}

// summaryLabels are the message ids of each group's count.
var summaryLabels = map[string]string{
	"":             "HeaderSummaryServers",
	GroupFailing:   "HeaderSummaryFailing",
	GroupSignIn:    "HeaderSummarySignIn",
	GroupStarting:  "HeaderSummaryStarting",
	GroupConnected: "HeaderSummaryConnected",
	GroupDisabled:  "HeaderSummaryDisabled",
}

// ServerFilterHref is the page address that filters the list to group;
// "" shows every server. It is relative, so the page keeps its path.
func ServerFilterHref(group string) string {
	if group == "" {
		return "?"
	}
	return "?state=" + group
}

// NewHeaderSummaryProps counts list by group. filter is the group the list
// shows now ("" for all), marked as the current link.
func NewHeaderSummaryProps(list []domain.Status, filter string) HeaderSummaryProps {
	return summaryOf(slices.Values(list), filter)
}

// summaryOf counts every server in all, in any order: the event stream
// passes the page's map as it is, so an update neither copies nor sorts
// the fleet.
func summaryOf(all iter.Seq[domain.Status], filter string) HeaderSummaryProps {
	var c GroupCounts
	for s := range all {
		c.Add(s, 1)
	}
	return NewHeaderSummaryPropsFromCounts(c, filter)
}

func summaryCount(group string, n int, filter string) SummaryCount {
	return SummaryCount{Group: group, Count: n, Href: ServerFilterHref(group), Current: group == filter,
		Label: Message{ID: summaryLabels[group], Data: map[string]any{"Count": n}}}
}
