package views_test

import (
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestSummaryFromCountsMatchesCountingTheList(t *testing.T) {
	list := []domain.Status{
		{ServerName: "a", State: domain.StateConnected},
		{ServerName: "b", State: domain.StateError},
		{ServerName: "c", State: domain.StateConnecting},
		{ServerName: "d", State: domain.StateDisabled},
		{ServerName: "e", State: domain.StateConnected},
	}
	var c views.GroupCounts
	for _, s := range list {
		c.Add(s, 1)
	}
	// A snapshot replaced: the old one leaves its group, the new one joins.
	c.Add(list[1], -1)
	list[1].State = domain.StateConnected
	c.Add(list[1], 1)
	for _, filter := range []string{"", views.GroupFailing, views.GroupDisabled, "nonsense"} {
		got := views.NewHeaderSummaryPropsFromCounts(c, filter)
		want := views.NewHeaderSummaryProps(list, filter)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("filter %q: got %+v, want %+v", filter, got, want)
		}
	}
}
