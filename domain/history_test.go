package domain_test

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// memHistory is an in-memory domain.HistoryStore for the domain's own
// tests; the sqlite adapter's tests cover the real one.
type memHistory struct {
	mu      sync.Mutex // guards changes and samples
	changes []domain.StateChange
	samples []domain.ProbeSample
}

func (m *memHistory) AppendHistory(_ context.Context, _ domain.Scope, c []domain.StateChange, p []domain.ProbeSample) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.changes = append(m.changes, c...)
	m.samples = append(m.samples, p...)
	return nil
}

func (m *memHistory) StateChanges(_ context.Context, _ domain.Scope, server string, _ time.Time) ([]domain.StateChange, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.StateChange
	for _, c := range m.changes {
		if c.Server == server {
			out = append(out, c)
		}
	}
	return out, nil
}

func (m *memHistory) ProbeSamples(_ context.Context, _ domain.Scope, server string, _ time.Time, _ int) ([]domain.ProbeSample, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.ProbeSample
	for _, p := range m.samples {
		if p.Server == server {
			out = append(out, p)
		}
	}
	return out, nil
}

func (m *memHistory) RecentProbes(context.Context, domain.Scope, int) ([]domain.ProbeSample, error) {
	return nil, nil
}

func (m *memHistory) PruneHistoryBefore(context.Context, time.Time) (int64, error) { return 0, nil }

func TestHubObserveSeesEverySnapshotInOrder(t *testing.T) {
	hub := domain.NewHub()
	hub.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseConnecting})
	var got []string
	stop := hub.Observe(func(s domain.Status) { got = append(got, s.ServerName+":"+string(s.Phase)) })
	hub.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseConnected})
	hub.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseWaiting})
	hub.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseDisposed})
	stop()
	hub.Publish(domain.Status{ServerName: "b", Phase: domain.PhaseConnecting})
	want := []string{"a:connecting", "a:connected", "a:waiting", "a:disposed"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v (the current snapshot first, nothing after stop)", got, want)
	}
}

func TestHistoryRecordsEachKeepAliveProbe(t *testing.T) {
	store := &memHistory{}
	r := newRig(t, nil)
	h, err := domain.NewHistory(t.Context(), domain.HistoryOptions{Store: store, Clock: r.clock})
	if err != nil {
		t.Fatal(err)
	}
	h.Record(r.fleet.Hub())
	t.Cleanup(func() { _ = h.Close(context.Background()) })

	r.attach(server("a"))
	sess := domaintest.NewSession(caps())
	r.conn.Next(t).Succeed(sess)
	r.waitPhase("a", domain.PhaseConnected)
	var probedAt []time.Time
	for range 2 {
		r.clock.WaitForTimer(t, 30*time.Second)
		r.clock.Advance(30 * time.Second)
		probedAt = append(probedAt, r.clock.Now())
		sess.AnswerProbe(t, nil)
		r.waitFor("a", "a probe's latency", func(s domain.Status) bool { return s.HasLatency && s.ProbedAt.Equal(r.clock.Now()) })
	}
	recent := h.RecentProbes("a")
	if len(recent) != 2 || !recent[0].At.Equal(probedAt[0]) || !recent[1].At.Equal(probedAt[1]) {
		t.Errorf("recent probes: got %+v, want two, at %v", recent, probedAt)
	}
	changes, err := h.StateChanges(t.Context(), "a", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var phases []domain.Phase
	for _, c := range changes {
		phases = append(phases, c.Phase)
	}
	if want := []domain.Phase{domain.PhaseConnecting, domain.PhaseConnected}; !reflect.DeepEqual(phases, want) {
		t.Errorf("state changes: got %v, want %v (probes are no transitions)", phases, want)
	}
}
