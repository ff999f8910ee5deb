package mcpserver

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// listener is a client session that only collects notifications; mcp-go
// hands them over synchronously, so what it holds is all that was sent.
type listener struct{ ch chan mcp.JSONRPCNotification }

func (l *listener) Initialize()                                         {}
func (l *listener) Initialized() bool                                   { return true }
func (l *listener) NotificationChannel() chan<- mcp.JSONRPCNotification { return l.ch }
func (l *listener) SessionID() string                                   { return "listener" }

func (l *listener) take() []string {
	var out []string
	for {
		select {
		case n := <-l.ch:
			out = append(out, n.Method)
		default:
			return out
		}
	}
}

type rig struct {
	fleet *domain.Fleet
	conn  *domaintest.Connector
	clock *domaintest.Clock
	g     *Gateway
	l     *listener
}

// newRig returns a rig whose aggregated endpoint has a session, as if a
// client had connected.
func newRig(t *testing.T) *rig {
	t.Helper()
	r := newIdleRig(t)
	r.g.activate(r.g.agg) // as a client's first request does
	if err := r.g.agg.mcp.RegisterSession(t.Context(), r.l); err != nil {
		t.Fatal(err)
	}
	return r
}

// newIdleRig returns a rig no client has reached yet.
func newIdleRig(t *testing.T) *rig {
	t.Helper()
	r := &rig{conn: domaintest.NewConnector(), clock: domaintest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))}
	r.fleet = domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: r.conn, Store: domaintest.NewStore(), Scope: domain.Scope{User: domain.LocalUser},
		Clock: domaintest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)), Rand: func() float64 { return 0 },
	}})
	inv := domain.NewInvocations(domain.InvocationsOptions{Caller: r.fleet, Catalog: r.fleet, Store: domaintest.NewInvocationStore()})
	r.g = New(Options{Fleet: r.fleet, Invocations: inv, Clock: r.clock})
	r.l = &listener{ch: make(chan mcp.JSONRPCNotification, 64)}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.fleet.Close(ctx)
	})
	return r
}

func (r *rig) connect(t *testing.T, name string, caps domain.Capabilities) *domaintest.Session {
	t.Helper()
	cfg := domain.ServerConfig{Name: name, Transport: domain.TransportStdio, Command: "true", AutoReconnect: true, ConnectTimeout: time.Minute}
	if err := r.fleet.Attach(t.Context(), []domain.ServerConfig{cfg}); err != nil {
		t.Fatal(err)
	}
	s := domaintest.NewSession(caps)
	r.conn.Next(t).Succeed(s)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if st, err := r.fleet.Status(name); err == nil && st.State == domain.StateConnected {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never connected", name)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func toolsCaps(names ...string) domain.Capabilities {
	var c domain.Capabilities
	for _, n := range names {
		c.Tools = append(c.Tools, domain.Tool{Name: n})
	}
	return c
}

func TestListChangedOnlyWhenTheExposedListChanges(t *testing.T) {
	r := newRig(t)
	r.connect(t, "alpha", toolsCaps("a"))
	r.g.Refresh()
	if got := r.l.take(); len(got) != 1 || got[0] != "notifications/tools/list_changed" {
		t.Fatalf("first server: got %v, want one tools/list_changed", got)
	}
	r.g.Refresh()
	r.g.Refresh()
	if got := r.l.take(); len(got) != 0 {
		t.Fatalf("nothing changed: got %v, want no notification", got)
	}
	// A server the gateway does not expose changes nothing either.
	if _, err := r.fleet.Disable(t.Context(), "alpha"); err != nil {
		t.Fatal(err)
	}
	r.g.Refresh()
	if got := r.l.take(); len(got) != 1 || got[0] != "notifications/tools/list_changed" {
		t.Fatalf("disabled: got %v, want one tools/list_changed", got)
	}
	if got := r.g.agg.cat.Load().Tools; len(got) != 0 {
		t.Fatalf("disabled server's tools: got %v, want none", got)
	}
}

func TestListChangesAreDebounced(t *testing.T) {
	r := newRig(t)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); r.g.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	r.connect(t, "alpha", toolsCaps("a"))
	r.clock.WaitForTimer(t, DefaultDebounce)
	r.clock.Advance(DefaultDebounce - time.Millisecond)
	if got := r.l.take(); len(got) != 0 {
		t.Fatalf("before the debounce ends: got %v, want nothing", got)
	}
	if _, ok := r.g.agg.cat.Load().Tool("alpha__a"); ok {
		t.Fatal("before the debounce ends: the tool is already listed")
	}
	r.clock.Advance(time.Millisecond)
	select {
	case n := <-r.l.ch:
		if n.Method != "notifications/tools/list_changed" {
			t.Fatalf("got %s, want tools/list_changed", n.Method)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no list_changed after the debounce")
	}
	if _, ok := r.g.agg.cat.Load().Tool("alpha__a"); !ok {
		t.Fatal("after the debounce: alpha__a is not listed")
	}
}

// hideTool is a ToolFilter hiding one tool name.
type hideTool string

func (h hideTool) VisibleTools(_ context.Context, _ domain.Scope, _ string, tools []domain.Tool) ([]domain.Tool, error) {
	var out []domain.Tool
	for _, t := range tools {
		if t.Name != string(h) {
			out = append(out, t)
		}
	}
	return out, nil
}

func TestHiddenToolsAreNotExposed(t *testing.T) {
	r := newRig(t)
	r.g.opts.Policies = hideTool("secret")
	r.connect(t, "alpha", toolsCaps("a", "secret"))
	r.g.Refresh()
	cat := r.g.agg.cat.Load()
	if _, ok := cat.Tool("alpha__secret"); ok {
		t.Error("hidden tool is listed")
	}
	if _, ok := cat.Tool("alpha__a"); !ok {
		t.Error("visible tool is not listed")
	}
}
