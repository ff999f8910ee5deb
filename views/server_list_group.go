package views

import (
	"cmp"
	"slices"
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Server groups sort the server list and name the header summary's
// filters. They follow the chip's state, so a row's place, its dot and the
// count it adds to never disagree.
const (
	GroupFailing   = "failing"
	GroupSignIn    = "sign_in"
	GroupStarting  = "starting"
	GroupConnected = "connected"
	GroupDisabled  = "disabled"
)

// ServerGroups lists the groups in the order the list shows them: what
// needs a person first, what works, then what was turned off.
var ServerGroups = []string{GroupFailing, GroupSignIn, GroupStarting, GroupConnected, GroupDisabled}

// chipGroups maps a chip state to its group.
var chipGroups = map[string]string{
	string(domain.StateError):      GroupFailing,
	ChipSignIn:                     GroupSignIn,
	string(domain.StateConnecting): GroupStarting,
	string(domain.StateConnected):  GroupConnected,
	string(domain.StateDisabled):   GroupDisabled,
}

// groupOf returns the group of a chip state; an unknown state counts as
// failing, so it sorts to the top where a person will see it.
func groupOf(chipState string) string {
	if g, ok := chipGroups[chipState]; ok {
		return g
	}
	return GroupFailing
}

// groupRank is a group's place in ServerGroups.
func groupRank(group string) int { return slices.Index(ServerGroups, group) }

// NormalServerFilter returns group if it names a group, else "" (all).
func NormalServerFilter(group string) string {
	if slices.Contains(ServerGroups, group) {
		return group
	}
	return ""
}

// sortRows orders rows failing first, then by name, as the page's script
// does after a live update (header.js compares data-rank, then the name).
func sortRows(rows []ServerRowProps) {
	slices.SortStableFunc(rows, func(a, b ServerRowProps) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), strings.Compare(a.Chip.Name, b.Chip.Name))
	})
}
