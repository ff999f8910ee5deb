package views

import "github.com/switchboard-mcp/switchboard/domain"

// GroupCounts counts servers in all and by summary group. It is
// comparable, so the page stream can keep one per page, change it by the
// snapshots a batch replaces instead of recounting the fleet, and key the
// rendered summary by it.
type GroupCounts struct {
	Total   int
	ByGroup [5]int // indexed like ServerGroups
}

// Add counts s n more times; n is -1 for a snapshot that was replaced or
// removed.
func (c *GroupCounts) Add(s domain.Status, n int) {
	c.Total += n
	c.ByGroup[groupRank(groupOf(chipState(s)))] += n
}

// NewHeaderSummaryPropsFromCounts is the header summary of servers counted
// as c; filter is the group the list shows now ("" for all).
func NewHeaderSummaryPropsFromCounts(c GroupCounts, filter string) HeaderSummaryProps {
	filter = NormalServerFilter(filter)
	p := HeaderSummaryProps{Counts: []SummaryCount{summaryCount("", c.Total, filter)}}
	for _, g := range []string{GroupConnected, GroupFailing, GroupSignIn, GroupStarting, GroupDisabled} {
		n := c.ByGroup[groupRank(g)]
		if n > 0 || alwaysCounted[g] || g == filter {
			p.Counts = append(p.Counts, summaryCount(g, n, filter))
		}
	}
	return p
}
