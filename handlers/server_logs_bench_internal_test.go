package handlers

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// BenchmarkServerLogsBurst is what a burst of messages from a server with a
// full list (200 kept) costs: keeping the burst's messages once, and
// writing each open page's event for them. B/event is one page's event.
func BenchmarkServerLogsBurst(b *testing.B) {
	for _, c := range []struct{ burst, pages int }{{1, 1}, {10, 1}, {10, 10}} {
		b.Run("kept=200/burst="+strconv.Itoa(c.burst)+"/pages="+strconv.Itoa(c.pages), func(b *testing.B) {
			benchLogsBurst(b, c.burst, c.pages)
		})
	}
}

func benchLogsBurst(b *testing.B, burst, pages int) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	clock := domaintest.NewClock(now)
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: domaintest.NewConnector(),
		Store:     domaintest.NewStore(),
		Scope:     domain.Scope{User: domain.LocalUser, Workspace: "bench"},
		Clock:     clock,
		Rand:      func() float64 { return 0 },
	}})
	b.Cleanup(func() { _ = fleet.Close(context.Background()) })
	cfg := domain.ServerConfig{Name: "files", Transport: domain.TransportStdio, Command: "npx", Args: []string{"-y", "@example/files"},
		ConnectTimeout: time.Minute, Env: map[string]string{"API_TOKEN": "tok-0123456789abcdef", "DB_PASSWORD": "pw-fedcba9876543210"}}
	if err := fleet.Attach(b.Context(), []domain.ServerConfig{cfg}); err != nil {
		b.Fatal(err)
	}
	logs := domain.NewServerLogs(domain.ServerLogsOptions{Redactors: fleet, Clock: clock, Burst: -1})
	note := func(i int) domain.ServerNotification {
		params := fmt.Sprintf(`{"level":"info","logger":"db","data":{"query":"select * from files where id = %d","rows":%d,"ms":3.5}}`, i, i%17)
		return domain.ServerNotification{Server: "files", Method: domain.NotifyMessage, Params: []byte(params)}
	}
	for i := range 200 {
		logs.Add(note(i))
	}
	feed := &serverLogsFeed{logs: logs, fleet: fleet}
	watches := make([]*logsWatch, pages)
	for i := range watches {
		watches[i] = &logsWatch{feed: feed, sent: map[string]uint64{"files": logs.Seq("files")}}
	}
	shown := map[string]domain.Status{"files": {ServerName: "files"}}
	ctx := context.Background()
	var out, html bytes.Buffer
	n := 200
	size := 0
	b.ReportAllocs()
	for b.Loop() {
		for range burst {
			logs.Add(note(n))
			n++
		}
		for _, w := range watches {
			w.logged.Store(true)
			out.Reset()
			if err := w.appendChanged(ctx, &out, &html, shown, now); err != nil {
				b.Fatal(err)
			}
			size = out.Len()
		}
	}
	b.ReportMetric(float64(size), "B/event")
}
