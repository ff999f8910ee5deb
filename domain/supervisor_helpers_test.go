package domain_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

var epoch = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// rig is a fleet wired to fakes, with a subscription that sees every
// snapshot in order.
type rig struct {
	t     *testing.T
	clock *domaintest.Clock
	conn  *domaintest.Connector
	store *domaintest.Store
	fleet *domain.Fleet
	sub   *domain.Subscription
	seen  []domain.Status // snapshots received but not yet consumed by waitFor
}

func newRig(t *testing.T, mutate func(*domain.FleetOptions)) *rig {
	t.Helper()
	r := &rig{t: t, clock: domaintest.NewClock(epoch), conn: domaintest.NewConnector(), store: domaintest.NewStore()}
	opts := domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: r.conn, Store: r.store, Clock: r.clock, Rand: func() float64 { return 0 },
		Scope: domain.Scope{User: "local", Workspace: "/w"},
	}}
	if mutate != nil {
		mutate(&opts)
	}
	r.fleet = domain.NewFleet(opts)
	r.sub = r.fleet.Hub().Subscribe()
	t.Cleanup(func() {
		r.sub.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.fleet.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return r
}

func server(name string) domain.ServerConfig {
	return domain.ServerConfig{Name: name, Transport: domain.TransportStdio, Command: "srv", AutoReconnect: true,
		KeepAlive: 30 * time.Second, ConnectTimeout: 30 * time.Second}
}

func (r *rig) attach(cfgs ...domain.ServerConfig) {
	r.t.Helper()
	if err := r.fleet.Attach(context.Background(), cfgs); err != nil {
		r.t.Fatalf("Attach: %v", err)
	}
}

// waitFor consumes snapshots of name until one satisfies ok, and returns it.
func (r *rig) waitFor(name string, desc string, ok func(domain.Status) bool) domain.Status {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var last []domain.Status
	for {
		// Snapshots of other servers stay queued for their own waits.
		for i, s := range r.seen {
			if s.ServerName != name {
				continue
			}
			last = append(last, s)
			if ok(s) {
				// Consume this server's snapshots up to the match; later
				// ones and other servers' stay queued.
				rest := make([]domain.Status, 0, len(r.seen))
				for j, o := range r.seen {
					if j > i || o.ServerName != name {
						rest = append(rest, o)
					}
				}
				r.seen = rest
				return s
			}
		}
		keep := r.seen[:0]
		for _, s := range r.seen {
			if s.ServerName != name {
				keep = append(keep, s)
			}
		}
		r.seen = keep
		batch, err := r.sub.Next(ctx)
		if err != nil {
			r.t.Fatalf("%s: never reached %s; snapshots seen: %s", name, desc, describe(last))
		}
		r.seen = append(r.seen, batch...)
	}
}

func (r *rig) waitPhase(name string, p domain.Phase) domain.Status {
	r.t.Helper()
	return r.waitFor(name, string(p), func(s domain.Status) bool { return s.Phase == p })
}

func describe(ss []domain.Status) string {
	out := ""
	for _, s := range ss {
		out += fmt.Sprintf("[%s/%s err=%q] ", s.Phase, s.State, s.Error)
	}
	return out
}

func caps(tools ...string) domain.Capabilities {
	var c domain.Capabilities
	for _, n := range tools {
		c.Tools = append(c.Tools, domain.Tool{Name: n})
	}
	c.Resources = []domain.Resource{{URI: "demo://r"}}
	c.Prompts = []domain.Prompt{{Name: "p"}, {Name: "q"}}
	return c
}

func transient(msg string) error {
	return &domain.ConnError{Category: domain.CategoryRefused, Err: fmt.Errorf("%s", msg)}
}

// crashed is a process that exited by itself: the server's own failure,
// which counts toward auto-disable.
func crashed() error {
	return &domain.ConnError{Category: domain.CategoryExited, ExitCode: 1, Err: domain.ErrProcessExited}
}
