package handlers_test

import (
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// The dashboard tells relative times by Options.Now, not the machine's
// clock: a server that synced at the fake clock's time shows as synced
// three minutes ago when Options.Now says three minutes have passed.
func TestDashboardTellsTimeByOptionsNow(t *testing.T) {
	var f *fixture
	f = newFixture(t, func(o *handlers.Options) {
		o.Now = func() time.Time { return f.clock.Now().Add(3 * time.Minute) }
	})
	f.connect(t, stdio("alpha"), domain.Capabilities{Tools: []domain.Tool{{Name: "a"}}})

	doc := f.dashboardIn(t, "en")
	sync := doc.Find(`[data-testid="server-list"] [data-server="alpha"] [data-testid="tooltip-last-sync"] time`).First()
	if sync.Length() == 0 {
		t.Fatal("alpha's list chip has no last-sync time")
	}
	if got := sync.Text(); got != "3 minutes ago" {
		t.Errorf("last sync %q, want %q", got, "3 minutes ago")
	}
}
