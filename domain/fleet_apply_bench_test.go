package domain_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// BenchmarkApplyOneChange reconciles 500 running servers after one of them
// changed its arguments, and reports the collateral reconnects (servers
// reconnected that did not change), which must be zero.
func BenchmarkApplyOneChange(b *testing.B) {
	const n = 500
	conn := &domaintest.AutoConnector{}
	fleet := domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: conn, Clock: domaintest.NewClock(time.Now())}})
	defer fleet.Close(context.Background())
	cfgs := make([]domain.ServerConfig, n)
	for i := range cfgs {
		cfgs[i] = domain.ServerConfig{Name: fmt.Sprintf("s%03d", i), Transport: domain.TransportStdio, Command: "srv",
			Args: []string{"--v", "0"}, AutoReconnect: true, KeepAlive: time.Minute, ConnectTimeout: time.Minute}
	}
	if _, err := fleet.Apply(context.Background(), cfgs); err != nil {
		b.Fatal(err)
	}
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
		if name != "s000" && a > 1 {
			collateral++
		}
	}
	b.ReportMetric(float64(collateral), "collateral-reconnects")
	if collateral != 0 {
		b.Fatalf("%d servers reconnected without a change", collateral)
	}
}
