package domain_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// BenchmarkApplyOneChange reconciles n running servers after one of them
// changed its arguments, and reports the collateral reconnects (servers
// reconnected that did not change), which must be zero. The 5,000-server
// case is a large team's settings; it shows whether Apply stays cheap when
// only one entry differs.
func BenchmarkApplyOneChange(b *testing.B) {
	for _, n := range []int{500, 5000} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) { benchApplyOneChange(b, n) })
	}
}

func benchApplyOneChange(b *testing.B, n int) {
	conn := &domaintest.AutoConnector{}
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: conn, Clock: domaintest.NewClock(time.Now())}})
	defer fleet.Close(context.Background())
	sub := fleet.Hub().Subscribe()
	defer sub.Close()
	cfgs := make([]domain.ServerConfig, n)
	for i := range cfgs {
		cfgs[i] = domain.ServerConfig{Name: fmt.Sprintf("s%04d", i), Transport: domain.TransportStdio, Command: "srv",
			Args: []string{"--v", "0"}, AutoReconnect: true, KeepAlive: time.Minute, ConnectTimeout: time.Minute}
	}
	if _, err := fleet.Apply(context.Background(), cfgs); err != nil {
		b.Fatal(err)
	}
	waitAllConnected(b, sub, n)
	changed := cfgs[0].Name
	b.ResetTimer()
	for i := range b.N {
		cfgs[0].Args = []string{"--v", fmt.Sprint(i + 1)}
		res, err := fleet.Apply(context.Background(), cfgs)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Reconnected) != 1 || len(res.Unchanged) != n-1 {
			b.Fatalf("Apply = %d reconnected, %d unchanged; want 1 and %d", len(res.Reconnected), len(res.Unchanged), n-1)
		}
	}
	b.StopTimer()
	collateral := 0
	for name, a := range conn.Attempts() {
		if name != changed && a > 1 {
			collateral++
		}
	}
	b.ReportMetric(float64(collateral), "collateral-reconnects")
	if collateral != 0 {
		b.Fatalf("%d servers reconnected without a change", collateral)
	}
}

// waitAllConnected returns once n servers are connected, so the timed
// Apply meets a settled fleet rather than one still dialling.
func waitAllConnected(b *testing.B, sub *domain.Subscription, n int) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	connected := map[string]bool{}
	for len(connected) < n {
		batch, err := sub.Next(ctx)
		if err != nil {
			b.Fatalf("%d of %d servers connected", len(connected), n)
		}
		for _, s := range batch {
			if s.State == domain.StateConnected {
				connected[s.ServerName] = true
			} else {
				delete(connected, s.ServerName)
			}
		}
	}
}
