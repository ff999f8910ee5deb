package domain_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestHubListAndVersions(t *testing.T) {
	h := domain.NewHub()
	a := h.Publish(domain.Status{ServerName: "b", Phase: domain.PhaseConnecting})
	b := h.Publish(domain.Status{ServerName: "a", Phase: domain.PhaseConnecting})
	c := h.Publish(domain.Status{ServerName: "b", Phase: domain.PhaseConnected})
	if !(a.Version < b.Version && b.Version < c.Version) {
		t.Fatalf("versions %d, %d, %d do not grow", a.Version, b.Version, c.Version)
	}
	list := h.List()
	if len(list) != 2 || list[0].ServerName != "a" || list[1].ServerName != "b" {
		t.Fatalf("List() = %+v, want a then b", list)
	}
	if got, _ := h.Get("b"); got.Phase != domain.PhaseConnected || got.Version != c.Version {
		t.Errorf("Get(b) = %s v%d, want connected v%d", got.Phase, got.Version, c.Version)
	}
	h.Publish(domain.Status{ServerName: "b", Phase: domain.PhaseDisposed})
	if _, ok := h.Get("b"); ok {
		t.Errorf("Get(b) after dispose found it, want gone")
	}
}

func TestSubscriptionStartsWithFullList(t *testing.T) {
	h := domain.NewHub()
	h.Publish(domain.Status{ServerName: "x"})
	h.Publish(domain.Status{ServerName: "y"})
	sub := h.Subscribe()
	defer sub.Close()
	got := next(t, sub)
	if len(got) != 2 {
		t.Fatalf("first Next = %d snapshots, want 2", len(got))
	}
}

// A reader that falls behind a burst must still end on the newest state of
// every server, and the publisher must never wait for it.
func TestSlowSubscriberGetsNewestState(t *testing.T) {
	h := domain.NewHub()
	sub := h.Subscribe()
	defer sub.Close()
	var last domain.Status
	for i := range 1000 {
		for _, name := range []string{"a", "b"} {
			last = h.Publish(domain.Status{ServerName: name, Attempt: i})
		}
	}
	got := next(t, sub)
	if len(got) != 2 {
		t.Fatalf("Next = %d snapshots, want 2 (one per server)", len(got))
	}
	for _, s := range got {
		if s.Attempt != 999 {
			t.Errorf("%s: got attempt %d, want the newest (999)", s.ServerName, s.Attempt)
		}
	}
	if got[1].Version != last.Version {
		t.Errorf("newest version %d, want %d", got[1].Version, last.Version)
	}
}

func TestClosedSubscriptionReceivesNothing(t *testing.T) {
	h := domain.NewHub()
	sub := h.Subscribe()
	sub.Close()
	h.Publish(domain.Status{ServerName: "a"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := sub.Next(ctx); err == nil {
		t.Errorf("Next after Close = %v, want the context error", got)
	}
}

func next(t *testing.T, sub *domain.Subscription) []domain.Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := sub.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return got
}

func BenchmarkHubPublish(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("subscribers=%d", n), func(b *testing.B) {
			h := domain.NewHub()
			for range n {
				defer h.Subscribe().Close()
			}
			st := domain.Status{ServerName: "bench", State: domain.StateConnected}
			b.ReportAllocs()
			for b.Loop() {
				h.Publish(st)
			}
		})
	}
}
