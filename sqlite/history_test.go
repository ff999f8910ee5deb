package sqlite

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

// recordHistory starts a History over store that records hub, stamped by
// clock, and closes it when the test ends (before the database).
func recordHistory(t *testing.T, store domain.HistoryStore, hub *domain.Hub, clock domain.Clock, queue int) *domain.History {
	t.Helper()
	h, err := domain.NewHistory(t.Context(), domain.HistoryOptions{Store: store, Scope: scopeA, Clock: clock, QueueLimit: queue})
	if err != nil {
		t.Fatalf("NewHistory: %v", err)
	}
	h.Record(hub)
	t.Cleanup(func() {
		if err := h.Close(context.Background()); err != nil {
			t.Errorf("History.Close: %v", err)
		}
	})
	return h
}

// snapshot is a status of server "demo" in phase p.
func snapshot(p domain.Phase, errText string) domain.Status {
	return domain.Status{ServerName: "demo", Phase: p, State: domain.StateOf(p, domain.DisabledNone), Error: errText}
}

// probed is a connected snapshot carrying a probe's latency measured at.
func probed(at time.Time, latency time.Duration) domain.Status {
	s := snapshot(domain.PhaseConnected, "")
	s.HasLatency, s.Latency, s.ProbedAt = true, latency, at
	return s
}

// phases returns the phases of changes, in order.
func phases(changes []domain.StateChange) []domain.Phase {
	out := make([]domain.Phase, 0, len(changes))
	for _, c := range changes {
		out = append(out, c.Phase)
	}
	return out
}

// latencies returns the latencies of samples, in order.
func latencies(samples []domain.ProbeSample) []time.Duration {
	out := make([]time.Duration, 0, len(samples))
	for _, p := range samples {
		out = append(out, p.Latency)
	}
	return out
}

func TestHistoryRecordsTransitionsAndProbesOnce(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	clock := domaintest.NewClock(t0)
	hub := domain.NewHub()
	h := recordHistory(t, db.HistoryStore(), hub, clock, 0)

	hub.Publish(snapshot(domain.PhaseConnecting, ""))
	clock.Advance(time.Second)
	hub.Publish(snapshot(domain.PhaseConnected, ""))
	again := snapshot(domain.PhaseConnected, "")
	again.ToolCount = 3 // not a transition
	hub.Publish(again)
	clock.Advance(30 * time.Second)
	hub.Publish(probed(clock.Now(), 12*time.Millisecond))
	hub.Publish(probed(clock.Now(), 12*time.Millisecond)) // the same probe, repeated by a later snapshot
	clock.Advance(30 * time.Second)
	hub.Publish(probed(clock.Now(), 15*time.Millisecond))
	clock.Advance(time.Minute)
	hub.Publish(snapshot(domain.PhaseWaiting, "connection refused"))
	clock.Advance(time.Second)
	hub.Publish(snapshot(domain.PhaseWaiting, "connection reset")) // a new error is a change

	all, err := h.StateChanges(t.Context(), "demo", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.StateChange{
		{Server: "demo", At: t0, State: domain.StateConnecting, Phase: domain.PhaseConnecting},
		{Server: "demo", At: t0.Add(time.Second), State: domain.StateConnected, Phase: domain.PhaseConnected},
		{Server: "demo", At: t0.Add(121 * time.Second), State: domain.StateError, Phase: domain.PhaseWaiting, Error: "connection refused"},
		{Server: "demo", At: t0.Add(122 * time.Second), State: domain.StateError, Phase: domain.PhaseWaiting, Error: "connection reset"},
	}
	if !reflect.DeepEqual(all, want) {
		t.Errorf("state changes:\ngot  %+v\nwant %+v", all, want)
	}

	// A window that starts while connected begins with the change that
	// connected the server.
	window, err := h.StateChanges(t.Context(), "demo", t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := phases(window), []domain.Phase{domain.PhaseConnected, domain.PhaseWaiting, domain.PhaseWaiting}; !reflect.DeepEqual(got, want) {
		t.Errorf("window from t0+1m: got %v, want %v", got, want)
	}

	samples, err := h.ProbeSamples(t.Context(), "demo", time.Time{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantSamples := []domain.ProbeSample{
		{Server: "demo", At: t0.Add(31 * time.Second), Latency: 12 * time.Millisecond},
		{Server: "demo", At: t0.Add(61 * time.Second), Latency: 15 * time.Millisecond},
	}
	if !reflect.DeepEqual(samples, wantSamples) {
		t.Errorf("probe samples:\ngot  %+v\nwant %+v", samples, wantSamples)
	}
	newest, err := h.ProbeSamples(t.Context(), "demo", time.Time{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := latencies(newest); !reflect.DeepEqual(got, []time.Duration{15 * time.Millisecond}) {
		t.Errorf("newest sample: got %v, want [15ms]", got)
	}
	if got := latencies(h.RecentProbes("demo")); !reflect.DeepEqual(got, []time.Duration{12 * time.Millisecond, 15 * time.Millisecond}) {
		t.Errorf("recent probes: got %v, want [12ms 15ms]", got)
	}
	if got := h.RecentProbes("other"); len(got) != 0 {
		t.Errorf("recent probes of an unknown server: got %v, want none", got)
	}
}

func TestHistorySurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	clock := domaintest.NewClock(t0)
	db, err := Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	hub := domain.NewHub()
	h, err := domain.NewHistory(t.Context(), domain.HistoryOptions{Store: db.HistoryStore(), Scope: scopeA, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	h.Record(hub)
	hub.Publish(snapshot(domain.PhaseConnecting, ""))
	clock.Advance(time.Second)
	hub.Publish(snapshot(domain.PhaseConnected, ""))
	for i := range domain.RecentProbeCount + 5 {
		clock.Advance(30 * time.Second)
		hub.Publish(probed(clock.Now(), time.Duration(i+1)*time.Millisecond))
	}
	clock.Advance(time.Second)
	hub.Publish(snapshot(domain.PhaseDisposed, "")) // shutdown
	if err := h.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = openTestDB(t, dir)
	h2 := recordHistory(t, db.HistoryStore(), domain.NewHub(), clock, 0)
	changes, err := h2.StateChanges(t.Context(), "demo", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := phases(changes), []domain.Phase{domain.PhaseConnecting, domain.PhaseConnected, domain.PhaseDisposed}; !reflect.DeepEqual(got, want) {
		t.Errorf("state changes after restart: got %v, want %v", got, want)
	}
	recent := h2.RecentProbes("demo")
	if len(recent) != domain.RecentProbeCount || recent[0].Latency != 6*time.Millisecond || recent[len(recent)-1].Latency != 25*time.Millisecond {
		t.Errorf("recent probes after restart: got %v, want the last %d (6ms..25ms)", latencies(recent), domain.RecentProbeCount)
	}
}

func TestHistoryLosesNoTransitionOfAFastPublisher(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	clock := domaintest.NewClock(t0)
	hub := domain.NewHub()
	h := recordHistory(t, db.HistoryStore(), hub, clock, 0)
	// A subscriber that never reads coalesces to the newest snapshot; the
	// history must not.
	sub := hub.Subscribe()
	defer sub.Close()

	const flips = 2000
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range flips {
			p := domain.PhaseConnecting
			if i%2 == 1 {
				p = domain.PhaseConnected
			}
			s := snapshot(p, "")
			s.ServerName = fmt.Sprintf("s%d", i%5)
			hub.Publish(s)
		}
	}()
	<-done
	if got := len(sub.Drain()); got != 5 {
		t.Errorf("the subscriber got %d snapshots, want 5 (one per server)", got)
	}
	total := 0
	for i := range 5 {
		changes, err := h.StateChanges(t.Context(), fmt.Sprintf("s%d", i), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		total += len(changes)
		for j := 1; j < len(changes); j++ {
			if changes[j].Phase == changes[j-1].Phase {
				t.Fatalf("s%d: change %d repeats phase %s: a transition between them was lost", i, j, changes[j].Phase)
			}
		}
	}
	if total != flips {
		t.Errorf("recorded %d state changes, want %d", total, flips)
	}
	if d := h.Dropped(); d != 0 {
		t.Errorf("dropped %d, want 0", d)
	}
}

// stalledStore holds AppendHistory until release is closed, as a stuck
// disk would.
type stalledStore struct {
	*HistoryStore
	entered chan struct{}
	release chan struct{}
}

func (s *stalledStore) AppendHistory(ctx context.Context, scope domain.Scope, changes []domain.StateChange, samples []domain.ProbeSample) error {
	select {
	case s.entered <- struct{}{}:
	default:
	}
	<-s.release
	return s.HistoryStore.AppendHistory(ctx, scope, changes, samples)
}

func TestHistoryQueueIsBoundedAndCountsDrops(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	store := &stalledStore{HistoryStore: db.HistoryStore(), entered: make(chan struct{}, 1), release: make(chan struct{})}
	hub := domain.NewHub()
	h := recordHistory(t, store, hub, domaintest.NewClock(t0), 3)

	hub.Publish(snapshot(domain.PhaseConnecting, ""))
	<-store.entered // the writer holds the first change; the queue is empty again
	for i := range 5 {
		p := domain.PhaseConnected
		if i%2 == 1 {
			p = domain.PhaseConnecting
		}
		hub.Publish(snapshot(p, ""))
	}
	if got := h.Dropped(); got != 2 {
		t.Errorf("dropped %d, want 2 (5 changes, room for 3)", got)
	}
	close(store.release)
	changes, err := h.StateChanges(t.Context(), "demo", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 4 {
		t.Errorf("stored %d changes, want 4 (the first and the 3 queued)", len(changes))
	}
}

func TestHistoryTellsSubscribersAfterWriting(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	hub := domain.NewHub()
	h := recordHistory(t, db.HistoryStore(), hub, domaintest.NewClock(t0), 0)
	sub := h.Subscribe()
	defer sub.Close()
	hub.Publish(snapshot(domain.PhaseConnecting, ""))
	select {
	case <-sub.Ready():
	case <-time.After(10 * time.Second): // only a broken writer gets here
		t.Fatal("no history change was announced")
	}
	if got := sub.Drain(); !reflect.DeepEqual(got, []string{"demo"}) {
		t.Errorf("changed servers: got %v, want [demo]", got)
	}
	changes, err := db.HistoryStore().StateChanges(t.Context(), scopeA, "demo", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 {
		t.Errorf("stored %d changes when the change was announced, want 1", len(changes))
	}
}

func TestPruneHistoryKeepsTheStateAtTheCut(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	s := db.HistoryStore()
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	change := func(server string, min int, p domain.Phase) domain.StateChange {
		return domain.StateChange{Server: server, At: at(min), State: domain.StateOf(p, domain.DisabledNone), Phase: p}
	}
	err := s.AppendHistory(t.Context(), scopeA, []domain.StateChange{
		change("steady", 0, domain.PhaseConnecting),
		change("steady", 1, domain.PhaseConnected), // the state at the cut: kept
		change("gone", 0, domain.PhaseConnected),
		change("gone", 2, domain.PhaseDisposed), // removed before the cut: nothing kept
		change("busy", 5, domain.PhaseWaiting),
		change("busy", 20, domain.PhaseConnecting), // after the cut
	}, []domain.ProbeSample{
		{Server: "steady", At: at(3), Latency: time.Millisecond},
		{Server: "steady", At: at(30), Latency: 2 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.PruneHistoryBefore(t.Context(), at(10))
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("pruned %d rows, want 4", n)
	}
	tests := []struct {
		server string
		want   []domain.Phase
	}{
		{"steady", []domain.Phase{domain.PhaseConnected}},
		{"gone", []domain.Phase{}},
		{"busy", []domain.Phase{domain.PhaseWaiting, domain.PhaseConnecting}},
	}
	for _, tt := range tests {
		got, err := s.StateChanges(t.Context(), scopeA, tt.server, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if p := phases(got); !reflect.DeepEqual(p, tt.want) {
			t.Errorf("%s after pruning: got %v, want %v", tt.server, p, tt.want)
		}
	}
	samples, err := s.ProbeSamples(t.Context(), scopeA, "steady", time.Time{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := latencies(samples); !reflect.DeepEqual(got, []time.Duration{2 * time.Millisecond}) {
		t.Errorf("samples after pruning: got %v, want [2ms]", got)
	}
}

func TestHistoryIsPerScope(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	s := db.HistoryStore()
	c := domain.StateChange{Server: "demo", At: t0, State: domain.StateConnected, Phase: domain.PhaseConnected}
	p := domain.ProbeSample{Server: "demo", At: t0, Latency: time.Millisecond}
	if err := s.AppendHistory(t.Context(), scopeA, []domain.StateChange{c}, []domain.ProbeSample{p}); err != nil {
		t.Fatal(err)
	}
	changes, err := s.StateChanges(t.Context(), scopeB, "demo", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	samples, err := s.RecentProbes(t.Context(), scopeB, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 || len(samples) != 0 {
		t.Errorf("another scope sees %d changes and %d samples, want none", len(changes), len(samples))
	}
}

func TestRecentProbesOfSeveralServers(t *testing.T) {
	s := openTestDB(t, t.TempDir()).HistoryStore()
	var samples []domain.ProbeSample
	for i := range 5 {
		for _, server := range []string{"b", "a", "c"} {
			samples = append(samples, domain.ProbeSample{Server: server, At: t0.Add(time.Duration(i) * time.Minute), Latency: time.Duration(i) * time.Millisecond})
		}
	}
	if err := s.AppendHistory(t.Context(), scopeA, nil, samples); err != nil {
		t.Fatal(err)
	}
	got, err := s.RecentProbes(t.Context(), scopeA, 2)
	if err != nil {
		t.Fatal(err)
	}
	var desc []string
	for _, p := range got {
		desc = append(desc, fmt.Sprintf("%s:%v", p.Server, p.Latency))
	}
	want := []string{"a:3ms", "a:4ms", "b:3ms", "b:4ms", "c:3ms", "c:4ms"}
	if !reflect.DeepEqual(desc, want) {
		t.Errorf("got %v, want %v", desc, want)
	}
}
